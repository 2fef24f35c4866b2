package dev.feedstore.client.testing;

import dev.feedstore.proto.v1.FeedSyncGrpc;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A client interceptor that counts the events the Watch calls through it asked for and were handed,
 * so that a test knows what a client has taken from its streams. Thread-safe.
 */
public final class WatchCounter implements ClientInterceptor {
  private final AtomicLong requested = new AtomicLong();
  private final AtomicLong received = new AtomicLong();

  /** Events asked for, in all Watch calls so far. */
  public long requested() {
    return requested.get();
  }

  /** Events handed to the client, in all Watch calls so far. */
  public long received() {
    return received.get();
  }

  @Override
  public <Q, A> ClientCall<Q, A> interceptCall(MethodDescriptor<Q, A> method, CallOptions options, Channel next) {
    ClientCall<Q, A> call = next.newCall(method, options);
    if (!method.getFullMethodName().equals(FeedSyncGrpc.getWatchMethod().getFullMethodName())) {
      return call;
    }
    return new ForwardingClientCall.SimpleForwardingClientCall<>(call) {
      @Override
      public void start(Listener<A> listener, Metadata headers) {
        super.start(new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
          @Override
          public void onMessage(A message) {
            received.incrementAndGet();
            super.onMessage(message);
          }
        }, headers);
      }

      @Override
      public void request(int count) {
        requested.addAndGet(count);
        super.request(count);
      }
    };
  }

  @Override
  public String toString() {
    return "requested " + requested + ", received " + received;
  }
}
