package dev.feedstore.server.internal.grpc;

import com.google.protobuf.MessageLite;
import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;

/**
 * gzip for the unary responses of FeedSync: a call answers in gzip when its client accepts gzip
 * (its {@code grpc-accept-encoding}, which grpc-java's clients send by default), and then each
 * response message of at least {@code compress-min-bytes} goes compressed and smaller ones as they
 * are. Watch goes as it is: its frames are encoded once for every stream of a space ({@code
 * WatchFrame}), and compressing them per stream would spend a reader's worth of CPU on each.
 * Requests sent in gzip are taken whatever this says (grpc-java servers inflate them). Stateless
 * and thread-safe.
 */
final class ResponseCompression implements ServerInterceptor {
  private static final String GZIP = "gzip";
  private final int minBytes;

  /** @param minBytes {@code compress-min-bytes}; 0 compresses nothing */
  ResponseCompression(int minBytes) {
    this.minBytes = minBytes;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    if (minBytes == 0 || call.getMethodDescriptor().getType() != MethodDescriptor.MethodType.UNARY) {
      return next.startCall(call, headers);
    }
    return next.startCall(new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
      @Override
      public void sendHeaders(Metadata responseHeaders) {
        // gRPC falls back to no compression when the client's grpc-accept-encoding lacks gzip.
        setCompression(GZIP);
        super.sendHeaders(responseHeaders);
      }

      @Override
      public void sendMessage(R message) {
        // The size is computed once and kept by the message, which serializing it reads again.
        setMessageCompression(!(message instanceof MessageLite lite) || lite.getSerializedSize() >= minBytes);
        super.sendMessage(message);
      }
    }, headers);
  }
}
