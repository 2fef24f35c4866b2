package dev.feedstore.server.internal.grpc;

import dev.feedstore.proto.v1.AppendResponse;
import dev.feedstore.proto.v1.AppendStreamResponse;
import dev.feedstore.server.internal.monitoring.ServerMetrics;
import io.grpc.ForwardingServerCall.SimpleForwardingServerCall;
import io.grpc.ForwardingServerCallListener.SimpleForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Counts every FeedSync call over gRPC as it ends, by method and status (a call the client
 * cancelled counts as {@code CANCELLED}), times unary calls, and counts Watch events, in {@link
 * ServerMetrics}. Thread-safe.
 */
final class MetricsInterceptor implements ServerInterceptor {
  private final ServerMetrics metrics;

  MetricsInterceptor(ServerMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
      ServerCallHandler<Q, A> next) {
    MethodDescriptor<Q, A> method = call.getMethodDescriptor();
    String name = method.getBareMethodName();
    boolean unary = method.getType() == MethodDescriptor.MethodType.UNARY;
    long started = System.nanoTime();
    AtomicBoolean ended = new AtomicBoolean();
    ServerCall.Listener<Q> listener = next.startCall(new SimpleForwardingServerCall<>(call) {
      @Override
      public void sendMessage(A message) {
        if (message instanceof AppendResponse response) {
          metrics.appended(response.getPositionsCount());
        } else if (message instanceof AppendStreamResponse answer) {
          metrics.appended(answer.getAppended().getPositionsCount());
        } else if (!unary) {
          metrics.eventSent(ServerMetrics.GRPC);
        }
        super.sendMessage(message);
      }

      @Override
      public void close(Status status, Metadata trailers) {
        if (ended.compareAndSet(false, true)) {
          metrics.callEnded(ServerMetrics.GRPC, name, status.getCode().name(), System.nanoTime() - started, unary);
        }
        super.close(status, trailers);
      }
    }, headers);
    return new SimpleForwardingServerCallListener<>(listener) {
      @Override
      public void onCancel() {
        // The client cancelled or went away: the call ends without a status of ours.
        if (ended.compareAndSet(false, true)) {
          metrics.callEnded(ServerMetrics.GRPC, name, Status.Code.CANCELLED.name(), System.nanoTime() - started,
              unary);
        }
        super.onCancel();
      }
    };
  }
}
