package dev.feedstore.server.internal.access;

import dev.feedstore.server.internal.errors.AccessDeniedException;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import dev.feedstore.server.settings.AccessTokens;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Who makes a call and what it may do, as found from its access token by {@link Authenticator}:
 * the same rules for every transport. A caller is {@linkplain #principal named} for the
 * per-principal limits: a JWT's subject, a static token's line, or, on a server without access
 * control, the client's address. Immutable and thread-safe.
 */
public final class Caller {
  private final String principal;
  private final Optional<List<AccessTokens.Grant>> grants;
  private final String refusal;
  private final Optional<Instant> expiresAt;

  private Caller(String principal, Optional<List<AccessTokens.Grant>> grants, String refusal,
      Optional<Instant> expiresAt) {
    this.principal = Objects.requireNonNull(principal, "principal");
    this.grants = grants;
    this.refusal = refusal;
    this.expiresAt = expiresAt;
  }

  /** A caller of a server without access control: it may do everything. */
  public static Caller open(String principal) {
    return new Caller(principal, Optional.empty(), "", Optional.empty());
  }

  /** A caller whose token allows what {@code grants} say, until {@code expiresAt} if it expires. */
  static Caller granted(String principal, List<AccessTokens.Grant> grants, Optional<Instant> expiresAt) {
    return new Caller(principal, Optional.of(List.copyOf(grants)), "", expiresAt);
  }

  /** A caller without a usable token; {@code why} says what is missing, without the token. */
  static Caller refused(String principal, String why) {
    return new Caller(principal, Optional.of(List.of()), why, Optional.empty());
  }

  /** The name per-principal limits count this caller under. */
  public String principal() {
    return principal;
  }

  /** When the caller's token expires; empty when it does not (or the server has no access control). */
  public Optional<Instant> expiresAt() {
    return expiresAt;
  }

  /**
   * Passes when the caller has a usable token, whatever it grants, or when the server has no
   * access control: for calls that name no space.
   *
   * @throws AccessDeniedException ({@code UNAUTHENTICATED}) naming what is missing
   */
  public void checkKnown() {
    if (!refusal.isEmpty()) {
      throw new AccessDeniedException(false, refusal);
    }
  }

  /**
   * Passes when the caller may read ({@code write} false) or append to ({@code write} true) {@code
   * spaceId}, or when the server has no access control.
   *
   * @throws AccessDeniedException naming what is missing
   */
  public void check(String method, String spaceId, boolean write) {
    checkKnown();
    if (grants.isEmpty()) {
      return;
    }
    List<AccessTokens.Grant> held = grants.get();
    if (held.stream().noneMatch(grant -> grant.mayRead(spaceId))) {
      throw new AccessDeniedException(true, "the access token may not use space '" + RateLimitedLog.clip(spaceId)
          + "'");
    }
    if (write && held.stream().noneMatch(grant -> grant.mayWrite(spaceId))) {
      throw new AccessDeniedException(true, "the access token may read space '" + RateLimitedLog.clip(spaceId)
          + "' but not " + method + " to it");
    }
  }

  /**
   * Passes when the caller holds an admin grant for {@code spaceId} (it may remove history), or
   * when the server has no access control.
   *
   * @throws AccessDeniedException naming the grant that is missing
   */
  public void checkAdmin(String method, String spaceId) {
    check(method, spaceId, false);
    if (grants.isPresent() && grants.get().stream().noneMatch(grant -> grant.mayAdminister(spaceId))) {
      throw new AccessDeniedException(true, method + " removes history of space '" + RateLimitedLog.clip(spaceId)
          + "' and needs an admin grant for it (an access-tokens line 'HASH admin SPACES', or \"admin\" in a"
          + " token's grants claim)");
    }
  }
}
