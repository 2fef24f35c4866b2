package dev.feedstore.core.query;

import static dev.feedstore.core.testing.TestVersions.version;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.json.JsonPointer;
import dev.feedstore.core.testing.TestBlocks;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DocumentKeyTest {
  private static final FeedId FEED = TestBlocks.feedId();
  private static final DocumentKey BY_ID = DocumentKey.pointer(JsonPointer.parse("/id"));

  static Stream<Arguments> keys() {
    return Stream.of(
        Arguments.of("{\"id\":\"a\"}", Optional.of(DocumentId.of("a"))),
        Arguments.of("{\"id\":\"\"}", Optional.of(DocumentId.of(""))),
        Arguments.of("{\"id\":7}", Optional.of(DocumentId.of(7))),
        Arguments.of("{\"id\":-0}", Optional.of(DocumentId.of(0))),
        Arguments.of("{\"id\":-9223372036854775808}", Optional.of(DocumentId.of(Long.MIN_VALUE))),
        Arguments.of("{\"id\":9223372036854775807}", Optional.of(DocumentId.of(Long.MAX_VALUE))),
        Arguments.of("{\"id\":9223372036854775808}", Optional.empty()),
        Arguments.of("{\"id\":7.0}", Optional.empty()),
        Arguments.of("{\"id\":7e0}", Optional.empty()),
        Arguments.of("{\"id\":0.5}", Optional.empty()),
        Arguments.of("{\"id\":true}", Optional.empty()),
        Arguments.of("{\"id\":null}", Optional.empty()),
        Arguments.of("{\"id\":[1]}", Optional.empty()),
        Arguments.of("{\"id\":{}}", Optional.empty()),
        Arguments.of("{\"other\":1}", Optional.empty()),
        Arguments.of("[\"id\"]", Optional.empty()),
        Arguments.of("{\"id\":1,\"id\":1}", Optional.empty()),
        Arguments.of("id=1", Optional.empty()));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("keys")
  void aPointerKeysStringsAndPlainIntegersOnly(String content, Optional<DocumentId> expected) {
    assertEquals(expected, BY_ID.idOf(version(FEED, null, 1, 1, content)));
  }

  @Test
  void integerAndStringKeysAreTwoDocuments() {
    assertNotEquals(DocumentId.of(7), DocumentId.of("7"));
    assertEquals(-1, Integer.signum(DocumentId.of(Long.MAX_VALUE).compareTo(DocumentId.of(""))),
        "integer keys before string keys");
    assertEquals(-1, Integer.signum(DocumentId.of(-5).compareTo(DocumentId.of(3))));
    assertEquals(-1, Integer.signum(DocumentId.of("\uFFFF").compareTo(DocumentId.of("😀"))), "strings by code point");
  }

  @Test
  void byDefaultEachFeedIsADocumentWhateverItsContent() {
    assertEquals(Optional.of(DocumentId.of(FEED.value())), DocumentKey.FEED.idOf(version(FEED, null, 0, -1, "\u0000")));
  }

  @Test
  void theScopeAppliesFirst() {
    LiveQuery tasks = LiveQuery.parse("space:w namespace:tasks key:/id");
    assertEquals(Optional.of(DocumentId.of(1)), tasks.documentOf(version(FEED, "tasks", 1, 1, "{\"id\":1}")));
    assertEquals(Optional.empty(), tasks.documentOf(version(FEED, "notes", 1, 1, "{\"id\":1}")));
    assertEquals(Optional.empty(), tasks.documentOf(version(FEED, null, 1, 1, "{\"id\":1}")));
  }
}
