package dev.feedstore.proto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.FeedInfo;
import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.testing.TestBlocks;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class WireMappingTest {
  private static final FeedId FEED = TestBlocks.feedId();

  @Test
  void blockWithEveryFieldRoundTrips() throws Exception {
    Block first = TestBlocks.block(FEED, "alice", 0);
    Block block = TestBlocks.after(first, "bob", 1).withPosition(Position.of(77));
    dev.feedstore.proto.v1.Block wire = WireMapping.toWire(block);
    assertEquals(FEED.value(), wire.getFeedId());
    assertEquals("bob", wire.getActorId());
    assertEquals(1, wire.getSequence());
    assertEquals("alice", wire.getPrevActorId());
    assertEquals(0, wire.getPrevSequence());
    assertTrue(wire.hasPrevSequence());
    assertEquals(block.timestamp(), wire.getTimestamp());
    assertEquals(ByteString.copyFromUtf8("bob/1"), wire.getData());
    assertEquals(77, wire.getPosition());
    assertEquals(block, WireMapping.toDomain(wire, "block"));
    assertEquals(block, WireMapping.toDomain(dev.feedstore.proto.v1.Block.parseFrom(wire.toByteArray()), "block"));
  }

  @Test
  void theReceiveTimeTravelsWithAPositionedBlockAndOnlyWithOne() throws Exception {
    Block block = TestBlocks.positioned(FEED, "a", 0, 5).withReceivedAt(1_767_225_600_000L);
    dev.feedstore.proto.v1.Block wire = dev.feedstore.proto.v1.Block.parseFrom(WireMapping.toWire(block).toByteArray());
    assertEquals(1_767_225_600_000L, wire.getReceivedAt());
    assertEquals(block.receivedAt(), WireMapping.toDomain(wire, "block").receivedAt());
    assertFalse(WireMapping.toWire(TestBlocks.positioned(FEED, "a", 0, 5)).hasReceivedAt(), "absent when unknown");

    InvalidValueException unpositioned = assertThrows(InvalidValueException.class,
        () -> WireMapping.toDomain(wire.toBuilder().clearPosition().build(), "blocks[1]"));
    assertEquals("blocks[1].received_at", unpositioned.field());
    InvalidValueException negative = assertThrows(InvalidValueException.class,
        () -> WireMapping.toDomain(wire.toBuilder().setReceivedAt(-2).build(), "blocks[0]"));
    assertEquals("blocks[0].received_at", negative.field());
    assertTrue(negative.getMessage().contains("must be >= 0"), negative.getMessage());
  }

  @Test
  void absentPredecessorAndPositionStayAbsent() throws Exception {
    Block block = Block.unpositioned(TestBlocks.key(FEED, "a", 0), Optional.empty(), 0, BlockData.EMPTY);
    dev.feedstore.proto.v1.Block wire = dev.feedstore.proto.v1.Block.parseFrom(WireMapping.toWire(block).toByteArray());
    assertFalse(wire.hasPrevActorId());
    assertFalse(wire.hasPrevSequence());
    assertFalse(wire.hasPosition());
    Block back = WireMapping.toDomain(wire, "block");
    assertEquals(Optional.empty(), back.predecessor());
    assertEquals(Position.NONE, back.position());
    assertEquals(block, back);
  }

  @Test
  void predecessorWithSequenceZeroIsPresentNotAbsent() {
    Block block = TestBlocks.after(TestBlocks.block(FEED, "a", 0), "a", 1);
    dev.feedstore.proto.v1.Block wire = WireMapping.toWire(block);
    assertTrue(wire.hasPrevSequence());
    assertEquals(block.predecessor(), WireMapping.toDomain(wire, "b").predecessor());
  }

  @Test
  void keyAndFeedInfoRoundTrip() {
    BlockKey key = TestBlocks.key(FEED, "actor", 12);
    assertEquals(key, WireMapping.toDomain(WireMapping.toWire(key), "key"));
    SpaceId space = new SpaceId("s");
    FeedInfo withNamespace = new FeedInfo(space, FEED, Optional.of(new Namespace("data")), 3, Position.of(9));
    FeedInfo without = new FeedInfo(space, FEED, Optional.empty(), 0, Position.NONE);
    assertEquals(withNamespace, WireMapping.toDomain(space, WireMapping.toWire(withNamespace), "f"));
    assertEquals(without, WireMapping.toDomain(space, WireMapping.toWire(without), "f"));
    assertFalse(WireMapping.toWire(without).hasNamespace());
  }

  static Stream<Arguments> malformedBlocks() {
    return Stream.of(
        bad("bad ULID", b -> b.setFeedId("not-a-ulid"), "blocks[1].feed_id must be a ULID", "'not-a-ulid'"),
        bad("empty feed id", b -> b.setFeedId(""), "blocks[1].feed_id must be a ULID", "''"),
        bad("empty actor id", b -> b.setActorId(""), "blocks[1].actor_id must be 1-128 characters long", "''"),
        bad("over-long actor id", b -> b.setActorId("x".repeat(200)), "blocks[1].actor_id must be 1-128", "(200 chars)"),
        bad("actor id with a space", b -> b.setActorId("a b"), "blocks[1].actor_id must be 1-128 characters of printable ASCII", "'a b'"),
        bad("negative sequence", b -> b.setSequence(-3), "blocks[1].sequence must be >= 0", "was -3"),
        bad("negative timestamp", b -> b.setTimestamp(-1), "blocks[1].timestamp must be >= 0", "was -1"),
        bad("zero position", b -> b.setPosition(0), "blocks[1].position must be >= 1 when present", "was 0"),
        bad("negative prev sequence", b -> b.setPrevActorId("a").setPrevSequence(-2), "blocks[1].prev_sequence must be >= 0", "was -2"),
        bad("half a predecessor", b -> b.setPrevActorId("a"), "blocks[1].prev_sequence must be present when prev_actor_id is", "absent"),
        bad("the other half", b -> b.setPrevSequence(4), "blocks[1].prev_actor_id must be present when prev_sequence is", "absent"),
        bad("own predecessor", b -> b.setPrevActorId("a").setPrevSequence(5), "blocks[1].prev_sequence must not name the block itself", "was 5"));
  }

  private static Arguments bad(String name, UnaryOperator<dev.feedstore.proto.v1.Block.Builder> change, String message, String shown) {
    return Arguments.of(name, change, message, shown);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformedBlocks")
  void malformedWireBlockIsRejectedNamingTheWireField(
      String name, UnaryOperator<dev.feedstore.proto.v1.Block.Builder> change, String message, String shown) {
    dev.feedstore.proto.v1.Block good = WireMapping.toWire(TestBlocks.block(FEED, "a", 5));
    dev.feedstore.proto.v1.Block bad = change.apply(good.toBuilder()).build();
    InvalidValueException e = assertThrows(InvalidValueException.class, () -> WireMapping.toDomain(List.of(good, bad)));
    assertTrue(e.getMessage().startsWith(message), e.getMessage());
    assertTrue(e.getMessage().contains(shown), e.getMessage());
  }

  @Test
  void malformedIdsNameTheirField() {
    InvalidValueException e = assertThrows(InvalidValueException.class, () -> WireMapping.spaceId("bad space"));
    assertTrue(e.getMessage().startsWith("space_id must be 1-128 characters of [A-Za-z0-9._:-], was 'bad space'"), e.getMessage());
    e = assertThrows(InvalidValueException.class, () -> WireMapping.feedId("x", "feed_ids[2]"));
    assertTrue(e.getMessage().startsWith("feed_ids[2] must be a ULID"), e.getMessage());
    e = assertThrows(InvalidValueException.class, () -> WireMapping.namespace("", "namespace"));
    assertTrue(e.getMessage().startsWith("namespace must be 1-128 characters long, was ''"), e.getMessage());
  }
}
