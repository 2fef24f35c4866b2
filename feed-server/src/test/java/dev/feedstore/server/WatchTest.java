package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.WATCHES_PER_SERVER;
import static dev.feedstore.server.settings.ServerSettings.WATCH_BATCH_BLOCKS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.SubscribeRequest;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.EventRecorder;
import dev.feedstore.server.testing.TestClock;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.testing.Await;
import io.grpc.Context;
import io.grpc.Status;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WatchTest {
  @TempDir Path dir;
  final TestClock clock = new TestClock();
  TestServer t;
  final FeedId feed = TestBlocks.feedId();

  @BeforeEach
  void start() {
    t = TestServer.on(dir.resolve("feeds.db")).clock(clock)
        .settings(ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).set(WATCH_BATCH_BLOCKS, 10).build())
        .start();
  }

  @AfterEach
  void stop() {
    t.close();
  }

  EventRecorder<WatchEvent> watch(WatchRequest request) {
    EventRecorder<WatchEvent> events = new EventRecorder<>();
    t.async().watch(request, events);
    return events;
  }

  static WatchRequest.Builder request(String space) {
    return WatchRequest.newBuilder().setRequestId("w1").setSpaceId(space);
  }

  @Test
  void historyComesInBatchesThenCaughtUpThenLiveBlocks() {
    t.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 0, 25)));
    EventRecorder<WatchEvent> events = watch(request("s").setCursor(3).build());

    List<Long> positions = new ArrayList<>();
    WatchEvent event = events.next();
    assertEquals(2, event.getCursorBlock().getSequence(), "the first event names the block at the cursor (position 3)");
    while (event.hasBlocks()) {
      assertTrue(event.getBlocks().getBlocksCount() <= 10);
      assertEquals(25, event.getMaxPosition());
      assertEquals("w1", event.getRequestId());
      event.getBlocks().getBlocksList().forEach(b -> positions.add(b.getPosition()));
      event = events.next();
      assertFalse(event.hasCursorBlock(), "only the first event names the cursor block");
    }
    assertTrue(event.hasCaughtUp(), event.toString());
    assertEquals(range(4, 25), positions);

    t.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 25, 2)));
    WatchEvent live = events.next();
    assertEquals(List.of(26L, 27L), positions(live));
    assertEquals(27, live.getMaxPosition());
    assertFalse(live.getServerToken().isEmpty());
  }

  @Test
  void aStreamAtTheTipStartsWithCaughtUpNamingTheCursorBlock() {
    t.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 0, 2)));
    EventRecorder<WatchEvent> events = watch(request("s").setCursor(2).build());

    WatchEvent first = events.next();
    assertTrue(first.hasCaughtUp());
    assertEquals(1, first.getCursorBlock().getSequence());
    assertEquals(2, first.getMaxPosition());
  }

  @Test
  void anUnknownServerTokenReadsFromTheStart() {
    t.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 0, 3)));
    EventRecorder<WatchEvent> events = watch(request("s").setCursor(2).setExpectedServerToken("other-store").build());

    WatchEvent first = events.next();
    assertEquals(List.of(1L, 2L, 3L), positions(first));
    assertFalse(first.hasCursorBlock());
  }

  @Test
  void aScopedStreamSendsOnlyItsFeedsIncludingNamespaceFeedsCreatedLater() {
    FeedId other = TestBlocks.feedId();
    t.blocking().append(Wire.append("s", Wire.block(feed, "a", 0)).toBuilder().setNamespace("data").build());
    t.blocking().append(Wire.append("s", Wire.block(other, "a", 0)));
    EventRecorder<WatchEvent> events = watch(request("s").setNamespace("data").build());
    WatchEvent first = events.next();
    assertEquals(List.of(1L), positions(first));
    assertEquals("data", first.getBlocks().getFeedNamespacesMap().get(feed.value()));
    assertTrue(events.next().hasCaughtUp());

    FeedId later = TestBlocks.feedId();
    t.blocking().append(Wire.append("s", Wire.block(other, "a", 1)));
    t.blocking().append(Wire.append("s", Wire.block(later, "b", 0)).toBuilder().setNamespace("data").build());

    WatchEvent live = events.next();
    assertEquals(List.of(4L), positions(live));
    assertEquals(later.value(), live.getBlocks().getBlocks(0).getFeedId());
  }

  @Test
  void anIdleStreamGetsHeartbeatsCarryingMaxPosition() {
    t.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 0, 2)));
    EventRecorder<WatchEvent> events = watch(request("s").build());
    events.next();
    assertTrue(events.next().hasCaughtUp());

    t.server.tick(); // the caught_up event was sent since the last tick: no heartbeat yet
    t.server.tick();

    WatchEvent heartbeat = events.next();
    assertTrue(heartbeat.hasHeartbeat(), heartbeat.toString());
    assertEquals(2, heartbeat.getMaxPosition());
    assertFalse(heartbeat.getServerToken().isEmpty());
  }

  @Test
  void heartbeatsArriveOnTheirOwnWithAShortInterval() {
    t.close();
    t = TestServer.on(dir.resolve("feeds.db")).settings(ServerSettings.newBuilder().set(HEARTBEAT_MS, 20).build())
        .start();
    EventRecorder<WatchEvent> events = watch(request("s").build());
    assertTrue(events.next().hasCaughtUp());

    assertTrue(events.next().hasHeartbeat());
  }

  @Test
  void aStreamEndsWithNotFoundWhenItsSubscriptionExpires() {
    String id = t.blocking().subscribe(SubscribeRequest.newBuilder().setSpaceId("s").addFeedIds(feed.value())
        .setTtlMs(60_000).build()).getSubscriptionId();
    EventRecorder<WatchEvent> events = watch(request("s").setSubscriptionId(id).build());
    assertTrue(events.next().hasCaughtUp());

    clock.advance(Duration.ofSeconds(59));
    t.server.tick(); // an open stream renews its subscription
    clock.advance(Duration.ofSeconds(59));
    t.server.tick();
    assertFalse(events.ended());

    clock.advance(Duration.ofSeconds(61));
    t.server.tick();

    Status end = events.awaitEnd();
    assertEquals(Status.Code.NOT_FOUND, end.getCode());
    assertTrue(end.getDescription().contains("subscribe again"), end.getDescription());
    Await.until("the stream is released", () -> t.server.openWatches() == 0);
  }

  @Test
  void aStreamOfASubscriptionFollowsItsScope() {
    FeedId other = TestBlocks.feedId();
    String id = t.blocking().subscribe(SubscribeRequest.newBuilder().setSpaceId("s").addFeedIds(feed.value())
        .build()).getSubscriptionId();
    EventRecorder<WatchEvent> events = watch(request("s").setSubscriptionId(id).build());
    assertTrue(events.next().hasCaughtUp());

    t.blocking().append(Wire.append("s", Wire.block(other, "a", 0), Wire.block(feed, "a", 0)));

    assertEquals(List.of(2L), positions(events.next()));
  }

  @Test
  void shutdownEndsStreamsWithUnavailable() {
    EventRecorder<WatchEvent> events = watch(request("s").build());
    assertTrue(events.next().hasCaughtUp());

    t.server.close();

    assertEquals(Status.Code.UNAVAILABLE, events.awaitEnd().getCode());
  }

  @Test
  void cancellingAStreamReleasesIt() {
    Context.CancellableContext context = Context.current().withCancellation();
    EventRecorder<WatchEvent> events = new EventRecorder<>();
    context.run(() -> t.async().watch(request("s").build(), events));
    assertTrue(events.next().hasCaughtUp());
    assertEquals(1, t.server.openWatches());

    context.cancel(null);

    Await.until("the stream is released", () -> t.server.openWatches() == 0);
    t.blocking().append(Wire.append("s", Wire.block(feed, "a", 0)));
  }

  @Test
  void watchesPerServerIsALimitNamedInTheError() {
    t.close();
    t = TestServer.on(dir.resolve("feeds.db")).settings(ServerSettings.newBuilder().set(WATCHES_PER_SERVER, 2)
        .build()).start();
    watch(request("s").build()).next();
    watch(request("s").build()).next();

    Status third = watch(request("s").build()).awaitEnd();

    assertEquals(Status.Code.RESOURCE_EXHAUSTED, third.getCode());
    assertTrue(third.getDescription().contains("watches-per-server"), third.getDescription());
  }

  @Test
  void manyWatchersOfOneSpaceShareTheReadingOfNewBlocks() {
    List<EventRecorder<WatchEvent>> watchers = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      watchers.add(watch(request("s").build()));
    }
    for (EventRecorder<WatchEvent> w : watchers) {
      assertTrue(w.next().hasCaughtUp());
    }
    long readsBefore = t.store.reads();

    for (int i = 0; i < 10; i++) {
      t.blocking().append(Wire.append("s", Wire.block(feed, "a", i)));
    }
    for (EventRecorder<WatchEvent> w : watchers) {
      List<Long> got = new ArrayList<>();
      while (got.size() < 10) {
        got.addAll(positions(w.next()));
      }
      assertEquals(range(1, 10), got);
    }

    assertEquals(readsBefore, t.store.reads(), "live blocks came from the shared tail, not from storage");
  }

  static List<Long> positions(WatchEvent event) {
    assertTrue(event.hasBlocks(), event.toString());
    return event.getBlocks().getBlocksList().stream().map(Block::getPosition).toList();
  }

  static List<Long> range(long from, long to) {
    List<Long> out = new ArrayList<>();
    for (long p = from; p <= to; p++) {
      out.add(p);
    }
    return out;
  }
}
