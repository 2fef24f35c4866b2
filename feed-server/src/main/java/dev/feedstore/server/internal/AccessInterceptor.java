package dev.feedstore.server.internal;

import dev.feedstore.proto.WireHeaders;
import dev.feedstore.server.AccessTokens;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import java.util.Optional;

/**
 * Reads each call's {@code authorization: Bearer TOKEN} header and puts what the token may do into
 * the call's {@link Context}, for {@link #check} in the handlers, which know the space a request
 * names. Installed only when the server has access tokens. Stateless and thread-safe.
 */
final class AccessInterceptor implements ServerInterceptor {
  /** Set on every call of a server with tokens: the grant, or why there is none. */
  private static final Context.Key<Access> ACCESS = Context.key("feed-access");

  private record Access(Optional<AccessTokens.Grant> grant, String refusal) {}

  private final AccessTokens tokens;

  AccessInterceptor(AccessTokens tokens) {
    this.tokens = tokens;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    return Contexts.interceptCall(Context.current().withValue(ACCESS, access(headers.get(WireHeaders.AUTHORIZATION))), call,
        headers, next);
  }

  private Access access(String header) {
    if (header == null) {
      return new Access(Optional.empty(), "this server needs an access token: send the header"
          + " 'authorization: Bearer TOKEN'");
    }
    int scheme = WireHeaders.BEARER.length();
    if (!header.regionMatches(true, 0, WireHeaders.BEARER, 0, scheme)) {
      return new Access(Optional.empty(), "the authorization header must be 'Bearer TOKEN'");
    }
    Optional<AccessTokens.Grant> grant = tokens.grantFor(header.substring(scheme).strip());
    return grant.isPresent()
        ? new Access(grant, "")
        : new Access(Optional.empty(), "the access token is not one this server knows");
  }

  /**
   * Passes when the current call carries a token the server knows, whatever it grants, or when the
   * server has no tokens: for calls that name no space.
   *
   * @throws AccessDeniedException ({@code UNAUTHENTICATED}) naming what is missing
   */
  static void checkKnown() {
    Access access = ACCESS.get();
    if (access != null && access.grant().isEmpty()) {
      throw new AccessDeniedException(false, access.refusal());
    }
  }

  /**
   * Passes when the current call may read ({@code write} false) or append to ({@code write} true)
   * {@code spaceId}, or when the server has no tokens.
   *
   * @throws AccessDeniedException naming what is missing
   */
  static void check(String method, String spaceId, boolean write) {
    Access access = ACCESS.get();
    if (access == null) {
      return; // the server has no access tokens
    }
    if (access.grant().isEmpty()) {
      throw new AccessDeniedException(false, access.refusal());
    }
    AccessTokens.Grant grant = access.grant().get();
    if (!grant.mayRead(spaceId)) {
      throw new AccessDeniedException(true, "the access token may not use space '" + RateLimitedLog.clip(spaceId)
          + "'");
    }
    if (write && !grant.mayWrite(spaceId)) {
      throw new AccessDeniedException(true, "the access token may read space '" + RateLimitedLog.clip(spaceId)
          + "' but not " + method + " to it");
    }
  }
}
