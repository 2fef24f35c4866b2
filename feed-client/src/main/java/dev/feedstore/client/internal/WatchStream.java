package dev.feedstore.client.internal;

import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;

/**
 * One Watch call with manual flow control: one event is requested at a time, and the next only
 * when the consumer asks, so the client never buffers a backlog. Cancelled, it hands on no more
 * events and reads out those it holds. Thread-safe.
 */
public final class WatchStream {

  /** Receives the events of one stream, on a gRPC thread (possibly a transport thread: must not block). */
  public interface Handler {
    void onEvent(WatchStream stream, WatchEvent event);

    /**
     * The stream ended; {@code status} is OK only if the server completed it. {@code failure} is
     * what the call failed with (with the status details: {@link GrpcAuthority#translate} reads
     * them), null when the server completed it.
     */
    void onClose(WatchStream stream, Status status, StatusRuntimeException failure);
  }

  private volatile ClientCallStreamObserver<WatchRequest> call;
  private volatile boolean cancelled;

  private WatchStream() {}

  public static WatchStream open(FeedSyncGrpc.FeedSyncStub stub, WatchRequest request, Handler handler, Runnable onNotFound) {
    WatchStream stream = new WatchStream();
    stub.watch(request, new ClientResponseObserver<WatchRequest, WatchEvent>() {
      @Override
      public void beforeStart(ClientCallStreamObserver<WatchRequest> requestStream) {
        stream.call = requestStream;
        requestStream.disableAutoRequestWithInitial(1);
      }

      @Override
      public void onNext(WatchEvent event) {
        if (!stream.cancelled) {
          handler.onEvent(stream, event);
        }
      }

      @Override
      public void onError(Throwable t) {
        Status status = Status.fromThrowable(t);
        if (status.getCode() == Status.Code.NOT_FOUND) {
          onNotFound.run();
        }
        handler.onClose(stream, status, t instanceof StatusRuntimeException e ? e : status.asRuntimeException());
      }

      @Override
      public void onCompleted() {
        handler.onClose(stream, Status.OK, null);
      }
    });
    return stream;
  }

  /** Asks for the next event. */
  public void requestNext() {
    ClientCallStreamObserver<WatchRequest> current = call;
    if (current != null && !cancelled) {
      current.request(1);
    }
  }

  /**
   * Ends the stream; idempotent. The events the call received but were not asked for yet are read
   * out and dropped (the handler hears of none after this): a call whose connection is gone keeps
   * them until they are read, and the cancel, which travels through that connection, never reaches
   * them, so they would hold pooled direct memory of the transport until the garbage collector
   * found them.
   */
  public void cancel() {
    cancelled = true;
    ClientCallStreamObserver<WatchRequest> current = call;
    if (current != null) {
      current.cancel("closed by the client", null);
      current.request(Integer.MAX_VALUE);
    }
  }

  public boolean isCancelled() {
    return cancelled;
  }
}
