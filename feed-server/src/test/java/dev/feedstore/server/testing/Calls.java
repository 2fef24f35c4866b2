package dev.feedstore.server.testing;

import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.testing.Await;
import io.grpc.Channel;
import io.grpc.Context;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** Calls of the FeedSync service for tests, each with a deadline. */
public final class Calls {
  private Calls() {}

  /** A blocking stub whose calls fail after 30 s. */
  public static FeedSyncGrpc.FeedSyncBlockingStub blocking(Channel channel) {
    return FeedSyncGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  /**
   * Opens a Watch and waits (20 s at most) for its first answer: the first event, after which the
   * stream is cancelled; or the end of the stream, thrown as its {@link io.grpc.StatusRuntimeException}.
   */
  public static WatchEvent firstWatchEvent(Channel channel, WatchRequest request) {
    EventRecorder<WatchEvent> events = new EventRecorder<>();
    Context.CancellableContext context = Context.current().withCancellation();
    try {
      context.run(() -> FeedSyncGrpc.newStub(channel).watch(request, events));
      Await.until("the Watch answers", Duration.ofSeconds(20), () -> events.pending() > 0 || events.ended());
      if (events.pending() == 0) {
        throw events.awaitEndWithTrailers();
      }
      return events.next();
    } finally {
      context.cancel(null);
    }
  }
}
