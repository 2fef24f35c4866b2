package dev.feedstore.server.internal.grpc;

import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the calls of a service from their start until they complete or are cancelled, so that a
 * shutdown can tell when the service's own work is done. A transport may keep a stream open that
 * holds no work of ours (the rest of a message gRPC refused for its size, which a client is still
 * sending): that must not hold a shutdown up for its whole grace period.
 *
 * <p>Thread-safe.
 */
final class InFlightCalls implements ServerInterceptor {
  private final AtomicInteger count = new AtomicInteger();

  /** How many calls have started and not yet ended. */
  int count() {
    return count.get();
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    count.incrementAndGet();
    ServerCall.Listener<Q> listener;
    try {
      listener = next.startCall(call, headers);
    } catch (RuntimeException e) {
      count.decrementAndGet();
      throw e;
    }
    return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(listener) {
      private boolean ended;

      @Override
      public void onComplete() {
        try {
          super.onComplete();
        } finally {
          end();
        }
      }

      @Override
      public void onCancel() {
        try {
          super.onCancel();
        } finally {
          end();
        }
      }

      // Listener callbacks of one call are serialized, so a plain flag suffices.
      private void end() {
        if (!ended) {
          ended = true;
          count.decrementAndGet();
        }
      }
    };
  }
}
