package dev.feedstore.server.internal.grpc;

import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;

/**
 * The server side of one server-streaming call as a live sink writes it: the transport's readiness
 * (gRPC flow control) and its cancellation hooked to the sink's callbacks, events sent so that a
 * call cancelled while sending is the client gone rather than a failure, and the end as the status
 * of its reason ({@link Failures}). Used from one sink's serialized drain only, but for the hooks,
 * which gRPC runs on its own threads.
 *
 * @param <T> the events of the call
 */
final class ServerStream<T> {
  private final ServerCallStreamObserver<T> call;
  private volatile Runnable onGone = () -> {};

  ServerStream(ServerCallStreamObserver<T> call) {
    this.call = call;
  }

  /** Runs {@code onReady} when the call takes events again, {@code onGone} when the client went away. */
  void start(Runnable onReady, Runnable onGone) {
    this.onGone = onGone;
    call.setOnCancelHandler(onGone::run);
    call.setOnReadyHandler(onReady::run);
  }

  /** True when the call takes another event now without buffering it. */
  boolean isReady() {
    return call.isReady();
  }

  void send(T event) {
    try {
      call.onNext(event);
    } catch (StatusRuntimeException e) {
      onGone.run(); // cancelled while sending: the client is gone
    }
  }

  /** Ends the call with the status of {@code reason}. */
  void end(RuntimeException reason) {
    call.onError(Failures.toStatus(reason));
  }
}
