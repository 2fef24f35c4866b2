package dev.feedstore.core;

import static dev.feedstore.core.testing.TestBlocks.block;
import static dev.feedstore.core.testing.TestBlocks.positioned;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.feedstore.core.testing.TestBlocks;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FeedOrderTest {
  private static final FeedId FEED = TestBlocks.feedId();

  /** Each case lists blocks in the expected order; the test shuffles them and sorts them back. */
  static Stream<Arguments> orders() {
    return Stream.of(
        Arguments.of("positioned by position, whatever their sequences", List.of(
            positioned(FEED, "b", 9, 3), positioned(FEED, "a", 1, 7), positioned(FEED, "c", 0, 12))),
        Arguments.of("unpositioned by sequence", List.of(
            block(FEED, "z", 0), block(FEED, "a", 1), block(FEED, "m", 2))),
        Arguments.of("unpositioned sequence ties broken by actor id", List.of(
            block(FEED, "alice", 4), block(FEED, "bob", 4), block(FEED, "carol", 4))),
        Arguments.of("actor ids compare by code unit: upper case before lower case", List.of(
            block(FEED, "Zed", 1), block(FEED, "adam", 1), block(FEED, "zed", 1))),
        Arguments.of("actor ids compare as strings: a prefix first", List.of(
            block(FEED, "ab", 1), block(FEED, "abc", 1), block(FEED, "b", 1))),
        Arguments.of("every positioned block before every unpositioned one", List.of(
            positioned(FEED, "z", 50, 40), positioned(FEED, "z", 51, 41), block(FEED, "a", 0), block(FEED, "a", 1))),
        Arguments.of("mixed states with ties", List.of(
            positioned(FEED, "bob", 2, 5), positioned(FEED, "alice", 2, 6),
            block(FEED, "alice", 1), block(FEED, "alice", 3), block(FEED, "bob", 3), block(FEED, "carol", 3),
            block(FEED, "alice", 10))),
        Arguments.of("a low sequence that is positioned late still comes by position", List.of(
            positioned(FEED, "a", 5, 1), positioned(FEED, "a", 0, 2), block(FEED, "a", 6))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("orders")
  void sortsIntoFeedOrder(String name, List<Block> expected) {
    Random random = new Random(name.hashCode());
    for (int round = 0; round < 20; round++) {
      List<Block> shuffled = new ArrayList<>(expected);
      Collections.shuffle(shuffled, random);
      shuffled.sort(FeedOrder.COMPARATOR);
      assertEquals(expected, shuffled);
    }
  }
}
