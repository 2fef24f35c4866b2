package dev.feedstore.server.testing;

import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.testing.Await;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A Watch call whose reader asks for events one {@link #request} at a time (gRPC's manual flow
 * control), so a test decides when the reader reads and when it stalls. Records the events, and the
 * status and trailers it ends with. Thread-safe.
 */
public final class ManualWatch {
  private final ClientCall<WatchRequest, WatchEvent> call;
  private final ConcurrentLinkedQueue<WatchEvent> received = new ConcurrentLinkedQueue<>();
  private final AtomicReference<StatusRuntimeException> closed = new AtomicReference<>();

  private ManualWatch(ClientCall<WatchRequest, WatchEvent> call) {
    this.call = call;
  }

  /** Starts {@code request} on {@code channel}; nothing is read until {@link #request}. */
  public static ManualWatch start(Channel channel, WatchRequest request) {
    ManualWatch watch = new ManualWatch(channel.newCall(FeedSyncGrpc.getWatchMethod(), CallOptions.DEFAULT));
    watch.call.start(new ClientCall.Listener<>() {
      @Override
      public void onMessage(WatchEvent message) {
        watch.received.add(message);
      }

      @Override
      public void onClose(Status status, Metadata trailers) {
        watch.closed.set(status.asRuntimeException(trailers));
      }
    }, new Metadata());
    watch.call.sendMessage(request);
    watch.call.halfClose();
    return watch;
  }

  /** Lets {@code count} more events in. */
  public void request(int count) {
    call.request(count);
  }

  /** The events received so far, in order. */
  public ConcurrentLinkedQueue<WatchEvent> received() {
    return received;
  }

  /** The positions of the blocks received so far, in order. */
  public List<Long> positions() {
    List<Long> positions = new ArrayList<>();
    received.forEach(event -> event.getBlocks().getBlocksList().forEach(b -> positions.add(b.getPosition())));
    return positions;
  }

  /** The status (with its trailers) the call ended with, waiting for the end with a deadline. */
  public StatusRuntimeException awaitEnd() {
    Await.until("the watch ends", () -> closed.get() != null);
    return closed.get();
  }

  public void cancel() {
    call.cancel("done", null);
  }
}
