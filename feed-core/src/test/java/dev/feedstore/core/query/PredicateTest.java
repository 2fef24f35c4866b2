package dev.feedstore.core.query;

import static dev.feedstore.core.testing.TestVersions.version;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.testing.TestBlocks;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What each operator matches, on content and on metadata (docs/live-queries.md, "Predicates"). */
class PredicateTest {
  private static final SpaceId SPACE = SpaceId.of("work");
  private static final FeedId FEED = TestBlocks.feedId();

  static Stream<Arguments> onContent() {
    return Stream.of(
        // eq / ne / in: structural, typed, missing never equal nor unequal
        matches("/a = 7", "{\"a\":7.0}", true),
        matches("/a = 7", "{\"a\":7e0}", true),
        matches("/a = 0", "{\"a\":-0}", true),
        matches("/a = \"7\"", "{\"a\":7}", false),
        matches("/a = 1", "{\"a\":true}", false),
        matches("/a = true", "{\"a\":true}", true),
        matches("/a = null", "{\"a\":null}", true),
        matches("/a = null", "{}", false),
        matches("/a != false", "{\"a\":\"false\"}", true),
        matches("/a != 1", "{\"a\":1}", false),
        matches("/a != 1", "{}", false),
        matches("/a != null", "{\"a\":0}", true),
        matches("/a = {\"x\":[1,2],\"y\":\"z\"}", "{\"a\":{\"y\":\"z\",\"x\":[1.0,2]}}", true),
        matches("/a = [1,2]", "{\"a\":[2,1]}", false),
        matches("/a in [1,\"b\"]", "{\"a\":\"b\"}", true),
        matches("/a in [1,\"b\"]", "{\"a\":1.0}", true),
        matches("/a in [1,\"b\"]", "{\"a\":\"1\"}", false),
        matches("/a in []", "{\"a\":1}", false),
        matches("/a/0 = \"x\"", "{\"a\":[\"x\"]}", true),
        matches("\"\" = 5", "5", true),
        // lt / le / gt / ge: numbers by value, strings by code point, never across types
        matches("/a < 10", "{\"a\":9.99}", true),
        matches("/a < 10", "{\"a\":\"5\"}", false),
        matches("/a < \"b\"", "{\"a\":\"a\"}", true),
        matches("/a < \"b\"", "{\"a\":1}", false),
        matches("/a <= 7", "{\"a\":7.0}", true),
        matches("/a > 7", "{\"a\":7}", false),
        matches("/a >= 7", "{\"a\":7}", true),
        matches("/a > \"\uFFFF\"", "{\"a\":\"😀\"}", true),
        matches("/a < \"B\"", "{\"a\":\"a\"}", false),
        matches("/a > 1e999999", "{\"a\":1e1000000}", true),
        matches("/a < 1", "{\"a\":null}", false),
        matches("/a > 1", "{}", false),
        // exists
        matches("/a exists", "{\"a\":null}", true),
        matches("/a exists", "{}", false),
        matches("/a not exists", "{}", true),
        matches("/a not exists", "{\"a\":false}", false),
        matches("/a/b not exists", "{\"a\":5}", true),
        // contains: substring (case-sensitive) or array element
        matches("/a contains \"na\"", "{\"a\":\"Ana\"}", true),
        matches("/a contains \"an\"", "{\"a\":\"Ana\"}", false),
        matches("/a contains \"\"", "{\"a\":\"\"}", true),
        matches("/a contains \"x\"", "{\"a\":[\"y\",\"x\"]}", true),
        matches("/a contains 1", "{\"a\":[1.0]}", true),
        matches("/a contains \"1\"", "{\"a\":[1]}", false),
        matches("/a contains {\"k\":1}", "{\"a\":[{\"k\":1}]}", true),
        matches("/a contains \"x\"", "{\"a\":{\"x\":1}}", false),
        matches("/a contains 1", "{\"a\":1}", false),
        // blocks that are not JSON match no content predicate at all
        matches("/a not exists", "not json", false),
        matches("/a != 1", "{\"a\":1,\"a\":2}", false),
        matches("\"\" not exists", "", false),
        // several predicates: AND
        matches("/a = 1 and /b = 2", "{\"a\":1,\"b\":2}", true),
        matches("/a = 1 and /b = 2", "{\"a\":1,\"b\":3}", false));
  }

  private static Arguments matches(String condition, String content, boolean expected) {
    return Arguments.of(condition, content, expected);
  }

  @ParameterizedTest(name = "{0} on {1}: {2}")
  @MethodSource("onContent")
  void contentPredicates(String condition, String content, boolean expected) {
    LiveQuery query = LiveQuery.parse("space:work where " + condition);
    assertEquals(expected, query.filter().matches(version(FEED, "tasks", 3, 2000, content)));
  }

  static Stream<Arguments> onMetadata() {
    String feed = FEED.value();
    return Stream.of(
        Arguments.of("feed = \"" + feed.toLowerCase() + "\"", "tasks", 3, true),
        Arguments.of("feed != \"" + feed + "\"", "tasks", 3, false),
        Arguments.of("feed in [\"" + feed + "\"]", "tasks", 3, true),
        Arguments.of("namespace = \"tasks\"", "tasks", 3, true),
        Arguments.of("namespace = null", null, 3, true),
        Arguments.of("namespace = null", "tasks", 3, false),
        Arguments.of("namespace != null", "tasks", 3, true),
        Arguments.of("namespace < \"u\"", "tasks", 3, true),
        Arguments.of("namespace < \"u\"", null, 3, false),
        Arguments.of("namespace contains \"ask\"", "tasks", 3, true),
        Arguments.of("actor = \"actor\"", "tasks", 3, true),
        Arguments.of("actor contains \"ct\"", "tasks", 3, true),
        Arguments.of("timestamp = 500", "tasks", 3, true),
        Arguments.of("timestamp > 500.5", "tasks", 3, false),
        Arguments.of("positioned = true", "tasks", 3, true),
        Arguments.of("positioned = false", "tasks", 0, true),
        Arguments.of("positioned in [false]", "tasks", 3, false),
        Arguments.of("receivedAt = 2000", "tasks", 3, true),
        Arguments.of("receivedAt > 1999 and receivedAt < 2001", "tasks", 3, true),
        Arguments.of("receivedAt = 1000000", "tasks", 0, true),
        Arguments.of("receivedAt > 999999", "tasks", 0, true),
        Arguments.of("receivedAt < 1000000", "tasks", 0, false));
  }

  @ParameterizedTest(name = "{0} (namespace {1}, position {2}): {3}")
  @MethodSource("onMetadata")
  void metadataPredicates(String condition, String namespace, long position, boolean expected) {
    LiveQuery query = LiveQuery.parse("space:work where " + condition);
    assertEquals(expected, query.filter().matches(version(FEED, namespace, position, 2000, "not json")),
        "metadata is read whether or not the content is JSON");
  }

  @org.junit.jupiter.api.Test
  void anUnknownReceiveTimeMatchesNoComparison() {
    LiveQuery before = LiveQuery.parse("space:work where receivedAt < 9000000000000");
    LiveQuery after = LiveQuery.parse("space:work where receivedAt >= 0");
    ParsedBlock unknown = version(FEED, null, 3, -1, "{}");
    assertEquals(false, before.filter().matches(unknown));
    assertEquals(false, after.filter().matches(unknown));
  }
}
