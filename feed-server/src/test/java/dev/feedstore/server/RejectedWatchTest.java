package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.WATCHES_PER_CONNECTION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.SubscribeRequest;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.Calls;
import dev.feedstore.server.testing.Census;
import dev.feedstore.server.testing.EventRecorder;
import dev.feedstore.server.testing.TestClock;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Watch refused for a limit writes nothing: it neither slides its subscription's expiry nor
 * creates the server token of a space it names for the first time. (The subscription was looked up
 * and renewed, and the space loaded, before the limits were checked.)
 */
class RejectedWatchTest {
  @TempDir Path dir;

  @Test
  void aWatchOverItsConnectionsLimitWritesNothing() {
    TestClock clock = new TestClock();
    try (TestServer t = TestServer.on(dir.resolve("feeds.db")).loopback().clock(clock)
        .settings(ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).set(WATCHES_PER_CONNECTION, 1).build())
        .start()) {
      t.blocking().append(Wire.append("s", Wire.block(TestBlocks.feedId(), "a", 0)));
      String subscription = t.blocking().subscribe(SubscribeRequest.newBuilder().setSpaceId("s").addNamespaces("n")
          .build()).getSubscriptionId();
      EventRecorder<WatchEvent> open = new EventRecorder<>();
      Context.CancellableContext context = Context.current().withCancellation();
      context.run(() -> t.async().watch(WatchRequest.newBuilder().setSpaceId("s").setCursor(1).build(), open));
      assertTrue(open.next().hasCaughtUp());
      clock.advance(Duration.ofMinutes(10));
      Census before = Census.of(t.file);

      StatusRuntimeException bySubscription = assertThrows(StatusRuntimeException.class, () -> Calls.firstWatchEvent(
          t.channel, WatchRequest.newBuilder().setSpaceId("s").setSubscriptionId(subscription).build()));
      StatusRuntimeException newSpace = assertThrows(StatusRuntimeException.class, () -> Calls.firstWatchEvent(
          t.channel, WatchRequest.newBuilder().setSpaceId("fresh").build()));

      assertEquals(Status.Code.RESOURCE_EXHAUSTED, bySubscription.getStatus().getCode());
      assertEquals(Status.Code.RESOURCE_EXHAUSTED, newSpace.getStatus().getCode());
      assertTrue(newSpace.getStatus().getDescription().startsWith("watches-per-connection limit is 1"),
          newSpace.getStatus().getDescription());
      assertEquals("", Census.of(t.file).changesSince(before));
      context.cancel(null);
    }
  }
}
