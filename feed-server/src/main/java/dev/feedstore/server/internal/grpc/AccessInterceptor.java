package dev.feedstore.server.internal.grpc;

import dev.feedstore.proto.WireHeaders;
import dev.feedstore.server.internal.access.Authenticator;
import dev.feedstore.server.internal.access.Caller;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * Reads each call's {@code authorization: Bearer TOKEN} header and puts the {@link Caller} it
 * names ({@link Authenticator}) into the call's {@link Context}, for the handlers, which know the
 * space a request names. Stateless and thread-safe.
 */
final class AccessInterceptor implements ServerInterceptor {
  private static final Context.Key<Caller> CALLER = Context.key("feed-caller");

  private final Authenticator authenticator;

  AccessInterceptor(Authenticator authenticator) {
    this.authenticator = authenticator;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    Caller caller = authenticator.authenticate(headers.get(WireHeaders.AUTHORIZATION),
        host(call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR)));
    return Contexts.interceptCall(Context.current().withValue(CALLER, caller), call, headers, next);
  }

  /** The client's host: what names a caller on a server without access control. */
  private static String host(SocketAddress remote) {
    if (remote instanceof InetSocketAddress inet && inet.getAddress() != null) {
      return inet.getAddress().getHostAddress();
    }
    return remote == null ? "unknown" : remote.toString();
  }

  /** The caller of the current call (one that may do everything when no interceptor ran: not in a call). */
  static Caller caller() {
    Caller caller = CALLER.get();
    return caller == null ? Caller.open("unknown") : caller;
  }
}
