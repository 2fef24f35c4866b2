package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.BLOCKS_PER_APPEND;
import static dev.feedstore.server.settings.ServerSettings.BLOCK_BYTES;
import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.MAX_MESSAGE_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.ListFeedsRequest;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.SubscribeRequest;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.EventRecorder;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every class of bad input gets its status and a description that names the field or the limit,
 * writes nothing, and leaves the server serving.
 */
class BadInputTest {
  @TempDir Path dir;
  TestServer t;
  final FeedId feed = TestBlocks.feedId();

  @BeforeEach
  void start() {
    t = TestServer.on(dir.resolve("feeds.db"))
        .settings(ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).set(BLOCKS_PER_APPEND, 5)
            .set(BLOCK_BYTES, 100).set(MAX_MESSAGE_BYTES, 4096).build())
        .start();
  }

  @AfterEach
  void stop() {
    t.close();
  }

  record Case(String name, Consumer<TestServer> call, Status.Code code, String description) {}

  Block good() {
    return Wire.block(feed, "a", 0);
  }

  AppendRequest append(Block... blocks) {
    return Wire.append("s", blocks);
  }

  List<Case> cases() {
    return List.of(
        new Case("append: bad space id", s -> s.blocking().append(append(good()).toBuilder().setSpaceId("a b").build()),
            Status.Code.INVALID_ARGUMENT, "space_id must be 1-128 characters of [A-Za-z0-9._:-], was 'a b'"),
        new Case("append: empty space id", s -> s.blocking().append(append(good()).toBuilder().setSpaceId("").build()),
            Status.Code.INVALID_ARGUMENT, "space_id must be 1-128 characters long"),
        new Case("append: bad namespace", s -> s.blocking().append(append(good()).toBuilder().setNamespace("a/b").build()),
            Status.Code.INVALID_ARGUMENT, "namespace must be"),
        new Case("append: no blocks", s -> s.blocking().append(append()),
            Status.Code.INVALID_ARGUMENT, "blocks must hold at least one block"),
        new Case("append: bad ULID", s -> s.blocking().append(append(good(), good().toBuilder().setFeedId("x").build())),
            Status.Code.INVALID_ARGUMENT, "blocks[1].feed_id must be a ULID"),
        new Case("append: empty actor", s -> s.blocking().append(append(good().toBuilder().setActorId("").build())),
            Status.Code.INVALID_ARGUMENT, "blocks[0].actor_id must be 1-128 characters long"),
        new Case("append: negative sequence", s -> s.blocking().append(append(good().toBuilder().setSequence(-3).build())),
            Status.Code.INVALID_ARGUMENT, "blocks[0].sequence must be >= 0, was -3"),
        new Case("append: half a predecessor",
            s -> s.blocking().append(append(good().toBuilder().setPrevActorId("a").build())),
            Status.Code.INVALID_ARGUMENT, "blocks[0].prev_sequence must be present"),
        new Case("append: negative timestamp", s -> s.blocking().append(append(good().toBuilder().setTimestamp(-1).build())),
            Status.Code.INVALID_ARGUMENT, "blocks[0].timestamp must be >= 0"),
        new Case("append: a position", s -> s.blocking().append(append(good().toBuilder().setPosition(1).build())),
            Status.Code.INVALID_ARGUMENT, "blocks[0].position must be absent in Append"),
        new Case("append: too many blocks", s -> s.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 0, 6))),
            Status.Code.RESOURCE_EXHAUSTED, "blocks-per-append limit is 5, blocks of the append has 6"),
        new Case("append: block too large",
            s -> s.blocking().append(append(good().toBuilder().setData(ByteString.copyFrom(new byte[101])).build())),
            Status.Code.RESOURCE_EXHAUSTED, "block-bytes limit is 100, blocks[0].data has 101"),
        new Case("query: two scopes",
            s -> s.blocking().query(QueryRequest.newBuilder().setSpaceId("s").setNamespace("n").setSubscriptionId("x").build()),
            Status.Code.INVALID_ARGUMENT, "scope must be given by at most one of feed_ids, subscription_id and namespace,"
                + " was 'subscription_id and namespace'"),
        new Case("query: bad feed id",
            s -> s.blocking().query(QueryRequest.newBuilder().setSpaceId("s").addFeedIds("nope").build()),
            Status.Code.INVALID_ARGUMENT, "feed_ids[0] must be a ULID"),
        new Case("query: empty subscription id",
            s -> s.blocking().query(QueryRequest.newBuilder().setSpaceId("s").setSubscriptionId("").build()),
            Status.Code.INVALID_ARGUMENT, "subscription_id must be 1-128 characters"),
        new Case("query: negative cursor",
            s -> s.blocking().query(QueryRequest.newBuilder().setSpaceId("s").setCursor(-1).build()),
            Status.Code.INVALID_ARGUMENT, "cursor must be >= 0"),
        new Case("query: negative limit",
            s -> s.blocking().query(QueryRequest.newBuilder().setSpaceId("s").setLimit(-1).build()),
            Status.Code.INVALID_ARGUMENT, "limit must be >= 0"),
        new Case("query: limit above query-limit",
            s -> s.blocking().query(QueryRequest.newBuilder().setSpaceId("s").setLimit(5000).build()),
            Status.Code.RESOURCE_EXHAUSTED, "query-limit limit is 1000, limit of the query has 5000"),
        new Case("subscribe: no scope", s -> s.blocking().subscribe(SubscribeRequest.newBuilder().setSpaceId("s").build()),
            Status.Code.INVALID_ARGUMENT, "feed_ids and namespaces must name at least one feed or namespace"),
        new Case("subscribe: ttl zero",
            s -> s.blocking().subscribe(SubscribeRequest.newBuilder().setSpaceId("s").addNamespaces("n").setTtlMs(0).build()),
            Status.Code.INVALID_ARGUMENT, "ttl_ms must be > 0"),
        new Case("subscribe: ttl above the maximum",
            s -> s.blocking().subscribe(SubscribeRequest.newBuilder().setSpaceId("s").addNamespaces("n")
                .setTtlMs(Long.MAX_VALUE).build()),
            Status.Code.RESOURCE_EXHAUSTED, "subscription-max-ttl-ms limit is 86400000"),
        new Case("list feeds: bad namespace",
            s -> s.blocking().listFeeds(ListFeedsRequest.newBuilder().setSpaceId("s").setNamespace("").build()),
            Status.Code.INVALID_ARGUMENT, "namespace must be 1-128 characters long"),
        new Case("watch: negative cursor", s -> watch(s, WatchRequest.newBuilder().setSpaceId("s").setCursor(-7).build()),
            Status.Code.INVALID_ARGUMENT, "cursor must be >= 0 (0 reads from the start), was -7"),
        new Case("watch: two scopes",
            s -> watch(s, WatchRequest.newBuilder().setSpaceId("s").addFeedIds(feed.value()).setNamespace("n").build()),
            Status.Code.INVALID_ARGUMENT, "scope must be given by at most one of"),
        new Case("watch: unknown subscription",
            s -> watch(s, WatchRequest.newBuilder().setSpaceId("s").setSubscriptionId("gone").build()),
            Status.Code.NOT_FOUND, "subscription 'gone' is not known in space s; subscribe again"));
  }

  static void watch(TestServer s, WatchRequest request) {
    EventRecorder<WatchEvent> events = new EventRecorder<>();
    s.async().watch(request, events);
    Status status = events.awaitEnd();
    throw status.asRuntimeException();
  }

  @TestFactory
  Stream<DynamicTest> eachBadInputGetsItsStatusAndWritesNothing() {
    return cases().stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
      long writes = t.store.writes();
      StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> c.call().accept(t));
      assertEquals(c.code(), e.getStatus().getCode(), e.getStatus().toString());
      assertTrue(e.getStatus().getDescription().startsWith(c.description()),
          "expected '" + c.description() + "...', got '" + e.getStatus().getDescription() + "'");
      assertEquals(writes, t.store.writes(), "no write transaction ran");
    }));
  }

  @Test
  void theServerKeepsServingAfterBadInputOfEveryClass() {
    for (Case c : cases()) {
      assertThrows(StatusRuntimeException.class, () -> c.call().accept(t), c.name());
    }

    assertEquals(List.of(1L), t.blocking().append(append(good())).getPositionsList());
  }

  @Test
  void aConflictWritesNothing() {
    t.blocking().append(append(good()));
    FeedId other = TestBlocks.feedId();
    long before = t.blocking().query(QueryRequest.newBuilder().setSpaceId("s").build()).getMaxPosition();

    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> t.blocking().append(
        append(Wire.block(other, "a", 0), good().toBuilder().setTimestamp(5).build())));

    assertEquals(Status.Code.ALREADY_EXISTS, e.getStatus().getCode());
    assertEquals(before, t.blocking().query(QueryRequest.newBuilder().setSpaceId("s").build()).getMaxPosition());
    assertEquals(1, t.blocking().listFeeds(ListFeedsRequest.newBuilder().setSpaceId("s").build()).getFeedsCount());
  }
}
