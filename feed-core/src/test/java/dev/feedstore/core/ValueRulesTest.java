package dev.feedstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.testing.TestBlocks;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ValueRulesTest {

  static Stream<Arguments> malformedValues() {
    String long129 = "a".repeat(129);
    return Stream.of(
        bad("empty space id", () -> new SpaceId(""), "spaceId", "must be 1-128 characters long", "''"),
        bad("over-long space id", () -> new SpaceId(long129), "spaceId", "must be 1-128 characters long", "(129 chars)"),
        bad("space id with a space", () -> new SpaceId("my space"), "spaceId", "[A-Za-z0-9._:-]", "'my space'"),
        bad("space id with a slash", () -> new SpaceId("a/b"), "spaceId", "[A-Za-z0-9._:-]", "'a/b'"),
        bad("space id with unicode", () -> new SpaceId("café"), "spaceId", "[A-Za-z0-9._:-]", "'café'"),
        bad("missing space id", () -> new SpaceId(null), "spaceId", "is required", "null"),
        bad("namespace with a space", () -> new Namespace("a b"), "namespace", "[A-Za-z0-9._:-]", "'a b'"),
        bad("empty actor id", () -> new ActorId(""), "actorId", "must be 1-128 characters long", "''"),
        bad("over-long actor id", () -> new ActorId(long129), "actorId", "must be 1-128 characters long", "(129 chars)"),
        bad("actor id with a control character", () -> new ActorId("a\nb"), "actorId", "printable ASCII", "'a\\u000ab'"),
        bad("actor id with a space", () -> new ActorId("a b"), "actorId", "printable ASCII", "'a b'"),
        bad("ULID too short", () -> new FeedId("01ARZ3NDEKTSV4RRFFQ69G5FA"), "feedId", "must be a ULID", "'01ARZ3NDEKTSV4RRFFQ69G5FA'"),
        bad("ULID too long", () -> new FeedId("01ARZ3NDEKTSV4RRFFQ69G5FAVX"), "feedId", "must be a ULID", "'01ARZ3NDEKTSV4RRFFQ69G5FAVX'"),
        bad("ULID with I", () -> new FeedId("01ARZ3NDEKTSV4RRFFQ69G5FAI"), "feedId", "without I, L, O, U", "'01ARZ3NDEKTSV4RRFFQ69G5FAI'"),
        bad("ULID with U", () -> new FeedId("01ARZ3NDEKTSV4RRFFQ69G5FAU"), "feedId", "must be a ULID", "'01ARZ3NDEKTSV4RRFFQ69G5FAU'"),
        bad("ULID overflowing 128 bits", () -> new FeedId("81ARZ3NDEKTSV4RRFFQ69G5FAV"), "feedId", "first character 0-7", "'81ARZ3NDEKTSV4RRFFQ69G5FAV'"),
        bad("ULID with a dash", () -> new FeedId("01ARZ3NDEK-SV4RRFFQ69G5FAV"), "feedId", "must be a ULID", "'01ARZ3NDEK-SV4RRFFQ69G5FAV'"),
        bad("missing feed id", () -> new FeedId(null), "feedId", "is required", "null"),
        bad("negative sequence", () -> new Sequence(-3), "sequence", "must be >= 0", "-3"),
        bad("negative position", () -> new Position(-1), "position", "must be >= 0", "-1"),
        bad("negative timestamp", () -> Block.unpositioned(TestBlocks.key(TestBlocks.feedId(), "a", 0), Optional.empty(), -5, BlockData.EMPTY),
            "timestamp", "must be >= 0", "-5"),
        bad("block that is its own predecessor", () -> TestBlocks.block(TestBlocks.feedId(), "a", 4)
                .withPredecessor(Optional.of(new Predecessor(new ActorId("a"), new Sequence(4)))),
            "prevSequence", "must not name the block itself", "4"),
        bad("empty server token", () -> new ServerToken(""), "serverToken", "must be 1-128 characters long", "''"));
  }

  private static Arguments bad(String name, Executable make, String field, String rule, String shown) {
    return Arguments.of(name, make, field, rule, shown);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformedValues")
  void malformedValueIsRejectedNamingFieldRuleAndValue(
      String name, Executable make, String field, String rule, String shown) {
    InvalidValueException e = assertThrows(InvalidValueException.class, make);
    assertEquals(field, e.field());
    assertTrue(e.getMessage().startsWith(field + " "), e.getMessage());
    assertTrue(e.getMessage().contains(rule), e.getMessage());
    assertTrue(e.getMessage().contains("was " ) && e.getMessage().contains(shown), e.getMessage());
  }

  @Test
  void longValuesAreShortenedInTheMessage() {
    InvalidValueException e = assertThrows(InvalidValueException.class, () -> new ActorId("x".repeat(10_000)));
    assertTrue(e.getMessage().length() < 300, e.getMessage());
    assertTrue(e.getMessage().contains("(10000 chars)"), e.getMessage());
  }

  @Test
  void oversizeDataIsRejectedNamingTheLimitAndItsSetting() {
    Limits limits = Limits.DEFAULTS.withMaxBlockBytes(1024);
    Block ok = TestBlocks.block(TestBlocks.feedId(), "a", 0).withPredecessor(Optional.empty());
    limits.checkBlock(ok);
    Block big = Block.unpositioned(ok.key(), Optional.empty(), 1, TestBlocks.bytes(1025));
    LimitExceededException e = assertThrows(LimitExceededException.class, () -> limits.checkBlock(big));
    assertEquals(Limits.Key.BLOCK_BYTES, e.limitKey());
    assertEquals(1024, e.limit());
    assertEquals(1025, e.actual());
    assertTrue(e.getMessage().contains("block-bytes limit is 1024"), e.getMessage());
    assertTrue(e.getMessage().contains(ok.key().toString()), e.getMessage());
  }

  @Test
  void tooManyBlocksInOneAppendIsRejectedNamingTheLimit() {
    Limits limits = Limits.DEFAULTS.withMaxBlocksPerAppend(2);
    FeedId feed = TestBlocks.feedId();
    List<Block> three = List.of(TestBlocks.block(feed, "a", 0), TestBlocks.block(feed, "a", 1), TestBlocks.block(feed, "a", 2));
    LimitExceededException e = assertThrows(LimitExceededException.class, () -> limits.checkAppend(three));
    assertTrue(e.getMessage().startsWith("blocks-per-append limit is 2, blocks in one append has 3"), e.getMessage());
  }

  @Test
  void limitsMustBePositive() {
    InvalidValueException e = assertThrows(InvalidValueException.class, () -> Limits.DEFAULTS.withMaxQueryLimit(0));
    assertEquals("query-limit must be > 0, was 0", e.getMessage());
  }

  @Test
  void validValuesAreAccepted() {
    assertEquals("a.B_c:d-9", new SpaceId("a.B_c:d-9").value());
    assertEquals("x".repeat(128), new SpaceId("x".repeat(128)).value());
    assertEquals("~!@#$%^&*()", new ActorId("~!@#$%^&*()").value());
    assertEquals(0, new Sequence(0).value());
    assertEquals(Position.NONE, Position.of(0));
  }

  @Test
  void sequenceRuleGivesZeroForAnEmptyFeedAndMaxPlusOneOtherwise() {
    assertEquals(Sequence.FIRST, Sequence.after(null));
    assertEquals(new Sequence(0), Sequence.after(null));
    assertEquals(new Sequence(8), Sequence.after(new Sequence(7)));
  }

  @Test
  void blockDataIsImmutable() {
    byte[] bytes = {1, 2, 3};
    BlockData data = BlockData.copyOf(bytes);
    bytes[0] = 9;
    data.toByteArray()[1] = 9;
    assertEquals(BlockData.copyOf(new byte[] {1, 2, 3}), data);
  }
}
