package dev.feedstore.server.testing;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ClientInterceptors;
import io.grpc.ClientStreamTracer;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the responses of a client's gRPC calls weighed, by method: bytes as they crossed the wire and
 * once inflated, and the {@code grpc-encoding} the server answered with. Wrap a channel with
 * {@link #on}; the counts are read while or after the calls run. Thread-safe.
 */
public final class WireSizes {
  private static final Metadata.Key<String> ENCODING = Metadata.Key.of("grpc-encoding", Metadata.ASCII_STRING_MARSHALLER);
  private final Map<String, AtomicLong> wire = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> inflated = new ConcurrentHashMap<>();
  private final Map<String, String> encodings = new ConcurrentHashMap<>();

  /** {@code channel}, with every call's responses counted here. */
  public Channel on(Channel channel) {
    return ClientInterceptors.intercept(channel, new ClientInterceptor() {
      @Override
      public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
        String name = method.getBareMethodName();
        ClientStreamTracer.Factory tracer = new ClientStreamTracer.Factory() {
          @Override
          public ClientStreamTracer newClientStreamTracer(ClientStreamTracer.StreamInfo info, Metadata headers) {
            return new ClientStreamTracer() {
              @Override
              public void inboundWireSize(long bytes) {
                wire.computeIfAbsent(name, n -> new AtomicLong()).addAndGet(bytes);
              }

              @Override
              public void inboundUncompressedSize(long bytes) {
                inflated.computeIfAbsent(name, n -> new AtomicLong()).addAndGet(bytes);
              }
            };
          }
        };
        return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method,
            options.withStreamTracerFactory(tracer))) {
          @Override
          public void start(Listener<R> listener, Metadata headers) {
            super.start(new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
              @Override
              public void onHeaders(Metadata responseHeaders) {
                encodings.put(name, String.valueOf(responseHeaders.get(ENCODING)));
                super.onHeaders(responseHeaders);
              }
            }, headers);
          }
        };
      }
    });
  }

  /** Bytes of {@code method}'s response messages on the wire (compressed, when they were). */
  public long wire(String method) {
    return wire.getOrDefault(method, new AtomicLong()).get();
  }

  /** Bytes of {@code method}'s response messages inflated. */
  public long inflated(String method) {
    return inflated.getOrDefault(method, new AtomicLong()).get();
  }

  /** The {@code grpc-encoding} of {@code method}'s last response ({@code identity}: uncompressed; "null" before one). */
  public String encoding(String method) {
    return encodings.getOrDefault(method, "null");
  }
}
