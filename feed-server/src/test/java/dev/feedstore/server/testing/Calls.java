package dev.feedstore.server.testing;

import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.testing.Await;
import io.grpc.Channel;
import io.grpc.Context;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Calls of the FeedSync service for tests, each with a deadline. */
public final class Calls {
  private Calls() {}

  /** A blocking stub whose calls fail after 30 s. */
  public static FeedSyncGrpc.FeedSyncBlockingStub blocking(Channel channel) {
    return FeedSyncGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  /**
   * Every block of {@code space} the server holds, in position order, read over Query a page of 1,000
   * after another (each call waits for the channel to be ready, and fails after 30 s).
   */
  public static List<Block> allBlocks(Channel channel, String space) {
    FeedSyncGrpc.FeedSyncBlockingStub stub = FeedSyncGrpc.newBlockingStub(channel).withWaitForReady();
    List<Block> blocks = new ArrayList<>();
    QueryResponse page;
    do {
      long cursor = blocks.isEmpty() ? 0 : blocks.get(blocks.size() - 1).getPosition();
      page = stub.withDeadlineAfter(30, TimeUnit.SECONDS)
          .query(QueryRequest.newBuilder().setSpaceId(space).setCursor(cursor).setLimit(1000).build());
      blocks.addAll(page.getBlocksList());
    } while (page.getHasMore());
    return blocks;
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
