package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.WireErrors;
import dev.feedstore.proto.v1.AppendConflict;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.AppendResponse;
import dev.feedstore.proto.v1.BlockKey;
import dev.feedstore.server.testing.TestClock;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AppendTest {
  @TempDir Path dir;
  TestServer t;
  final FeedId feed = TestBlocks.feedId();

  @BeforeEach
  void start() {
    t = TestServer.on(dir.resolve("feeds.db")).start();
  }

  @AfterEach
  void stop() {
    t.close();
  }

  @Test
  void positionsArePerSpaceConsecutiveFromOneInRequestOrder() {
    AppendResponse first = t.blocking().append(Wire.append("s1", Wire.blocks(feed, "a", 0, 3)));
    AppendResponse second = t.blocking().append(Wire.append("s1", Wire.blocks(feed, "a", 3, 2)));
    AppendResponse other = t.blocking().append(Wire.append("s2", Wire.blocks(feed, "a", 0, 2)));

    assertEquals(List.of(1L, 2L, 3L), first.getPositionsList());
    assertEquals(List.of(4L, 5L), second.getPositionsList());
    assertEquals(List.of(1L, 2L), other.getPositionsList());
  }

  @Test
  void responseEchoesTheRequestIdAndCarriesTheServerToken() {
    AppendRequest request = Wire.append("s1", Wire.block(feed, "a", 0)).toBuilder().setRequestId("req-7").build();
    AppendResponse response = t.blocking().append(request);

    assertEquals("req-7", response.getRequestId());
    assertFalse(response.getServerToken().isEmpty());
  }

  @Test
  void identicalReAppendReturnsTheStoredPositionsAndDoesNotAdvanceTheCounter() {
    t.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 0, 3)));

    AppendResponse again = t.blocking().append(Wire.append("s",
        Wire.block(feed, "a", 1), Wire.block(feed, "a", 3), Wire.block(feed, "a", 0)));

    assertEquals(List.of(2L, 4L, 1L), again.getPositionsList());
    assertEquals(List.of(5L), t.blocking().append(Wire.append("s", Wire.block(feed, "a", 4))).getPositionsList());
  }

  /**
   * The answer says when the authority received each block, as the blocks it serves say it, so a
   * replica that pushed a block holds the same receive time as one that pulled it.
   */
  @Test
  void theAnswerCarriesEachBlocksReceiveTimeAndAHeldBlockItsFirstOne() {
    t.close();
    TestClock clock = new TestClock(java.time.Instant.ofEpochMilli(1_000_000));
    t = TestServer.on(dir.resolve("clocked.db")).clock(clock).start();

    AppendResponse first = t.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 0, 2)));
    clock.advance(java.time.Duration.ofSeconds(5));
    AppendResponse second = t.blocking().append(Wire.append("s",
        Wire.block(feed, "a", 2), Wire.block(feed, "a", 0), Wire.block(feed, "a", 2)));

    assertEquals(List.of(1_000_000L, 1_000_000L), first.getReceivedAtList());
    assertEquals(List.of(3L, 1L, 3L), second.getPositionsList());
    assertEquals(List.of(1_005_000L, 1_000_000L, 1_005_000L), second.getReceivedAtList(),
        "a new block now, a held one when it was first received, a repeated one as its first copy");
    var served = t.blocking().query(dev.feedstore.proto.v1.QueryRequest.newBuilder().setSpaceId("s").build())
        .getBlocksList();
    assertEquals(List.of(1_000_000L, 1_000_000L, 1_005_000L), served.stream().map(b -> b.getReceivedAt()).toList(),
        "the same times as the blocks served");
  }

  @Test
  void sameKeyWithDifferentContentFailsNamingEveryKeyAndWritesNothing() {
    FeedId other = TestBlocks.feedId();
    t.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 0, 3)));

    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> t.blocking().append(Wire.append("s",
        Wire.block(other, "b", 0),
        Wire.block(feed, "a", 1, "changed"),
        Wire.block(feed, "a", 7),
        Wire.block(feed, "a", 2, "changed too"))));

    assertEquals(Status.Code.ALREADY_EXISTS, e.getStatus().getCode());
    assertTrue(e.getStatus().getDescription().contains(feed + "/a/1"), e.getStatus().getDescription());
    assertTrue(e.getStatus().getDescription().contains(feed + "/a/2"), e.getStatus().getDescription());
    AppendConflict conflict = e.getTrailers().get(WireErrors.APPEND_CONFLICT);
    assertEquals(List.of(key(feed, "a", 1), key(feed, "a", 2)), conflict.getKeysList());
    SpaceId space = SpaceId.of("s");
    assertTrue(t.sqlite.read(tx -> tx.feeds().find(space, other)).isEmpty(), "the new feed was not created");
    assertTrue(t.sqlite.read(tx -> tx.blocks().find(space, TestBlocks.key(feed, "a", 7))).isEmpty());
    assertEquals(List.of(4L), t.blocking().append(Wire.append("s", Wire.block(feed, "a", 3))).getPositionsList(),
        "the failed append burnt no position");
  }

  @Test
  void aKeyStoredWithoutAPositionFailsTheAppendNamingItAndWritesNothing() {
    // Only a replica's store holds blocks without a position; the authority never positions one.
    SpaceId space = SpaceId.of("s");
    t.blocking().append(Wire.append("s", Wire.block(feed, "a", 0)));
    Block local = TestBlocks.block(feed, "a", 1);
    t.sqlite.write(tx -> tx.blocks().insertLocal(space, local));

    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> t.blocking().append(Wire.append("s",
        Wire.block(feed, "a", 2), Wire.block(local))));

    assertEquals(Status.Code.INTERNAL, e.getStatus().getCode());
    assertEquals(Position.NONE, t.sqlite.read(tx -> tx.blocks().find(space, local.key())).orElseThrow().position());
    assertTrue(t.sqlite.read(tx -> tx.blocks().find(space, TestBlocks.key(feed, "a", 2))).isEmpty());
    assertEquals(List.of(2L), t.blocking().append(Wire.append("s", Wire.block(feed, "a", 2))).getPositionsList());
  }

  @Test
  void twoBlocksWithOneKeyAndTheSameContentGetOnePosition() {
    AppendResponse response = t.blocking().append(Wire.append("s",
        Wire.block(feed, "a", 0), Wire.block(feed, "a", 1), Wire.block(feed, "a", 0)));

    assertEquals(List.of(1L, 2L, 1L), response.getPositionsList());
  }

  @Test
  void twoBlocksWithOneKeyAndDifferentContentAreInvalidNamingBothIndexes() {
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> t.blocking().append(Wire.append("s",
        Wire.block(feed, "a", 0), Wire.block(feed, "a", 1), Wire.block(feed, "a", 0, "other"))));

    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
    assertTrue(e.getStatus().getDescription().contains("blocks[2]"), e.getStatus().getDescription());
    assertTrue(e.getStatus().getDescription().contains("blocks[0]"), e.getStatus().getDescription());
    assertTrue(t.sqlite.read(tx -> tx.feeds().spaces()).isEmpty());
  }

  @Test
  void aBlockCarryingAPositionIsInvalid() {
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> t.blocking().append(
        Wire.append("s", Wire.block(feed, "a", 0), Wire.block(feed, "a", 1).toBuilder().setPosition(9).build())));

    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
    assertTrue(e.getStatus().getDescription().startsWith("blocks[1].position must be absent"),
        e.getStatus().getDescription());
  }

  @Test
  void aNewFeedTakesTheRequestNamespaceAndAnExistingFeedKeepsItsOwn() {
    t.blocking().append(Wire.append("s", Wire.block(feed, "a", 0)).toBuilder().setNamespace("data").build());
    t.blocking().append(Wire.append("s", Wire.block(feed, "a", 1)).toBuilder().setNamespace("trace").build());
    FeedId plain = TestBlocks.feedId();
    t.blocking().append(Wire.append("s", Wire.block(plain, "a", 0)));

    SpaceId space = SpaceId.of("s");
    assertEquals(Optional.of(Namespace.of("data")),
        t.sqlite.read(tx -> tx.feeds().find(space, feed)).orElseThrow().namespace());
    assertEquals(Optional.empty(), t.sqlite.read(tx -> tx.feeds().find(space, plain)).orElseThrow().namespace());
  }

  @Test
  void storedBlocksKeepTheirContentAndGetTheirPositions() {
    Block block = TestBlocks.after(TestBlocks.block(feed, "a", 0), "b", 1);
    t.blocking().append(Wire.append("s", Wire.block(TestBlocks.block(feed, "a", 0)), Wire.block(block)));

    List<Block> stored = t.sqlite.read(tx -> tx.blocks().after(SpaceId.of("s"), Scope.WHOLE_SPACE, Position.NONE, 10));
    assertEquals(2, stored.size());
    assertTrue(stored.get(1).sameContentAs(block));
    assertEquals(Position.of(2), stored.get(1).position());
  }

  @Test
  void positionsContinueAfterARestart() {
    t.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 0, 3)));
    t.close();
    t = TestServer.on(dir.resolve("feeds.db")).start();

    assertEquals(List.of(4L), t.blocking().append(Wire.append("s", Wire.block(feed, "a", 3))).getPositionsList());
  }

  static BlockKey key(FeedId feed, String actor, long sequence) {
    return BlockKey.newBuilder().setFeedId(feed.value()).setActorId(actor).setSequence(sequence).build();
  }
}
