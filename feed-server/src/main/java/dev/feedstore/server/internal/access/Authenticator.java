package dev.feedstore.server.internal.access;

import dev.feedstore.server.settings.AccessTokens;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Finds the {@link Caller} of a call from its {@code authorization} header, the same way for every
 * transport: a bearer token that is a JWT ({@link JwtAccess}, when the server checks JWTs) or a
 * token listed in the static tokens file. Without either every call is allowed, and callers are
 * named by their host. Tokens are never logged or put in messages.
 *
 * <p>Thread-safe; the tokens file may be {@linkplain #replace replaced} while calls run (calls
 * already admitted keep what they were granted).
 */
public final class Authenticator {
  /** The scheme of the {@code authorization} header a token comes in (RFC 6750), matched without case. */
  private static final String BEARER = "Bearer ";
  private final AtomicReference<Optional<AccessTokens>> tokens;
  private final Optional<JwtAccess> jwt;

  public Authenticator(Optional<AccessTokens> tokens, Optional<JwtAccess> jwt) {
    this.tokens = new AtomicReference<>(Objects.requireNonNull(tokens, "tokens"));
    this.jwt = Objects.requireNonNull(jwt, "jwt");
  }

  /**
   * Uses {@code next} for calls from now on.
   *
   * @throws IllegalStateException if the server was built without a tokens file: reloading cannot
   *     turn access control on
   */
  public void replace(AccessTokens next) {
    Objects.requireNonNull(next, "next");
    tokens.getAndUpdate(current -> {
      if (current.isEmpty()) {
        throw new IllegalStateException("the server was started without --access-tokens: there is no file to reload");
      }
      return Optional.of(next);
    });
  }

  /**
   * Reads the JWT key files again, if the server checks JWTs.
   *
   * @throws IllegalArgumentException naming a file that cannot be used; the keys in use stay
   */
  public void reloadJwtKeys() {
    jwt.ifPresent(JwtAccess::reload);
  }

  /** Whether {@link #authenticate} may block: it checks JWTs against the keys of a JWKS URL. */
  public boolean mayBlock() {
    return jwt.filter(JwtAccess::fetchesKeys).isPresent();
  }

  /**
   * The caller that sends {@code header} (null when the call has none) from {@code host}.
   */
  public Caller authenticate(String header, String host) {
    Optional<AccessTokens> file = tokens.get();
    if (file.isEmpty() && jwt.isEmpty()) {
      return Caller.open("host " + host);
    }
    String anonymous = "host " + host + " without a token";
    if (header == null) {
      return Caller.refused(anonymous, "this server needs an access token: send the header"
          + " 'authorization: Bearer TOKEN'");
    }
    int scheme = BEARER.length();
    if (!header.regionMatches(true, 0, BEARER, 0, scheme)) {
      return Caller.refused(anonymous, "the authorization header must be 'Bearer TOKEN'");
    }
    String token = header.substring(scheme).strip();
    if (jwt.isPresent() && (file.isEmpty() || JwtAccess.looksLikeJwt(token))) {
      return jwt.get().caller(token, anonymous);
    }
    Optional<List<AccessTokens.Grant>> grants = file.get().grantsFor(token);
    if (grants.isEmpty()) {
      return Caller.refused(anonymous, "the access token is not one this server knows");
    }
    return Caller.granted(staticPrincipal(token), grants.get(), Optional.empty());
  }

  /** A static token's principal: its line of the file, named by the start of the hash the line lists. */
  private static String staticPrincipal(String token) {
    return "token " + AccessTokens.sha256(token).substring(0, 12);
  }
}
