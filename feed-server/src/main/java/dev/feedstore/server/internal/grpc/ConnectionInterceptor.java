package dev.feedstore.server.internal.grpc;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import java.net.SocketAddress;

/**
 * Puts the remote address of each call's transport into its {@link Context}, so that handlers can
 * count Watch streams per connection and name the client in logs. A TCP connection's remote
 * address (ip and port) identifies it. Stateless and thread-safe.
 */
public final class ConnectionInterceptor implements ServerInterceptor {
  static final Context.Key<String> REMOTE_ADDRESS = Context.key("feed-remote-address");

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    SocketAddress remote = call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
    Context context = Context.current().withValue(REMOTE_ADDRESS, remote == null ? "unknown" : remote.toString());
    return Contexts.interceptCall(context, call, headers, next);
  }

  /** The remote address of the current call, or "unknown". */
  static String remoteAddress() {
    String address = REMOTE_ADDRESS.get();
    return address == null ? "unknown" : address;
  }
}
