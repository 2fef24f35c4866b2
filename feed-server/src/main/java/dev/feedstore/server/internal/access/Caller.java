package dev.feedstore.server.internal.access;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.server.internal.errors.AccessDeniedException;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import dev.feedstore.server.settings.AccessTokens;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Who makes a call and what it may do, as found from its access token by {@link Authenticator}:
 * the same rules for every transport. A caller is {@linkplain #principal named} for the
 * per-principal limits: a JWT's subject, a static token's line, or, on a server without access
 * control, the client's address.
 *
 * <p>Grants are per space, whole or by namespace. A read's scope is checked whole against the
 * namespaces its feeds were created with ({@link #checkRead}): one that reaches beyond the grants
 * is refused, never narrowed; a feed without a namespace, a feed the space does not hold yet, and
 * the whole space need a space-wide grant. An append is checked against the namespace of each of
 * its feeds as stored, in its own transaction ({@link #checkWrite}). Positions ({@code
 * max_position}, a space's floor) stay space-wide: any grant of the space sees them.
 *
 * <p>Immutable and thread-safe.
 */
public final class Caller {
  private final String principal;
  /** Empty on a server without access control. */
  private final Optional<Grants> grants;
  private final String refusal;
  private final Optional<Instant> expiresAt;

  private Caller(String principal, Optional<Grants> grants, String refusal, Optional<Instant> expiresAt) {
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
    return new Caller(principal, Optional.of(new Grants(grants)), "", expiresAt);
  }

  /** A caller without a usable token; {@code why} says what is missing, without the token. */
  static Caller refused(String principal, String why) {
    return new Caller(principal, Optional.of(new Grants(List.of())), why, Optional.empty());
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
   * Passes when the caller may read some of {@code spaceId} (with {@code write}: append to some of
   * it), or when the server has no access control: the first check of every call that names a
   * space, before what it reads or writes there is known.
   *
   * @throws AccessDeniedException naming what is missing
   */
  public void check(String method, String spaceId, boolean write) {
    checkKnown();
    if (grants.isEmpty()) {
      return;
    }
    if (!grants.get().names(spaceId)) {
      throw denied("the access token may not use space '" + RateLimitedLog.clip(spaceId) + "'");
    }
    if (write && !grants.get().writesIn(spaceId)) {
      throw denied("the access token may read space '" + RateLimitedLog.clip(spaceId) + "' but not " + method
          + " to it");
    }
  }

  /**
   * Whether the caller may read every feed of {@code spaceId} (with {@code write}: and append to
   * it): then no scope or feed it names needs checking.
   */
  public boolean mayUseWholeSpace(String spaceId, boolean write) {
    return refusal.isEmpty() && grants.map(held -> held.wholeSpace(spaceId, write)).orElse(true);
  }

  /**
   * Passes when the caller may read every feed of {@code spaceId} (with {@code write}: and append
   * to it), or when the server has no access control.
   *
   * @param reach what the call does that needs the whole space, for the refusal: "lists every feed"
   * @throws AccessDeniedException naming the space, what the call does and what the token may do
   */
  public void checkWholeSpace(String method, String spaceId, boolean write, String reach) {
    check(method, spaceId, write);
    if (!mayUseWholeSpace(spaceId, write)) {
      throw denied(method + " " + reach + ", which needs a space-wide " + (write ? "write" : "read")
          + " grant of space '" + RateLimitedLog.clip(spaceId) + "'; " + grants.get().describe(spaceId));
    }
  }

  /**
   * Passes when the caller may read every feed {@code scope} covers in {@code spaceId}, or when the
   * server has no access control: the listed namespaces must be granted, each listed feed's stored
   * namespace too (a feed without one, or one the space does not hold yet, needs a space-wide
   * grant), and the whole space a space-wide grant. {@code stored} is asked only for a caller
   * whose grants in the space are not space-wide.
   *
   * @throws AccessDeniedException naming the namespace or feed beyond the grants, and what the
   *     token may do in the space
   */
  public void checkRead(String method, SpaceId spaceId, Scope scope, StoredNamespaces stored) {
    String space = spaceId.value();
    check(method, space, false);
    if (mayUseWholeSpace(space, false)) {
      return;
    }
    if (!(scope instanceof Scope.Selection selection)) {
      checkWholeSpace(method, space, false, "reads the whole space (it names no feeds, namespace or subscription)");
      return;
    }
    for (Namespace namespace : selection.namespaces()) {
      if (!grants.get().covers(space, Optional.of(namespace), false)) {
        throw denied("the access token may not read namespace '" + namespace.value() + "' of space '"
            + RateLimitedLog.clip(space) + "'; " + grants.get().describe(space));
      }
    }
    if (!selection.feeds().isEmpty()) {
      Map<FeedId, Optional<Namespace>> found = stored.of(selection.feeds());
      for (FeedId feed : selection.feeds()) {
        if (!found.containsKey(feed)) {
          throw denied("feed " + feed.value() + " is not in space '" + RateLimitedLog.clip(space) + "' yet, so it has"
              + " no namespace, and naming it needs a space-wide read grant (a scope by namespace covers feeds"
              + " created later); " + grants.get().describe(space));
        }
        checkFeed(space, feed, found.get(feed), false, method);
      }
    }
  }

  /**
   * Passes when the caller may append to each of {@code feeds} in {@code spaceId}, given the
   * namespace each has as stored (a feed the append creates: the namespace it is created with), or
   * when the server has no access control. A feed without a namespace needs a space-wide write
   * grant.
   *
   * @throws AccessDeniedException naming the first feed and namespace beyond the grants
   */
  public void checkWrite(String method, SpaceId spaceId, Map<FeedId, Optional<Namespace>> feeds) {
    String space = spaceId.value();
    check(method, space, true);
    if (mayUseWholeSpace(space, true)) {
      return;
    }
    feeds.forEach((feed, namespace) -> checkFeed(space, feed, namespace, true, method));
  }

  /** Refuses reading (or appending to) {@code feed}, of {@code namespace}, unless a grant covers it. */
  private void checkFeed(String space, FeedId feed, Optional<Namespace> namespace, boolean write, String method) {
    if (grants.get().covers(space, namespace, write)) {
      return;
    }
    String what = write ? method + " to" : "reading";
    if (namespace.isEmpty()) {
      throw denied("feed " + feed.value() + " of space '" + RateLimitedLog.clip(space) + "' has no namespace, so "
          + what + " it needs a space-wide " + (write ? "write" : "read") + " grant"
          + (write ? " (an Append gives the feeds it creates its namespace)" : "") + "; "
          + grants.get().describe(space));
    }
    String of = "namespace '" + namespace.get().value() + "' of space '" + RateLimitedLog.clip(space) + "'";
    if (write && grants.get().covers(space, namespace, false)) {
      throw denied("the access token may read " + of + " but not " + method + " to it (feed " + feed.value() + ")");
    }
    throw denied("the access token may not " + (write ? method + " to " : "read ") + of + " (feed " + feed.value()
        + "); " + grants.get().describe(space));
  }

  /**
   * Passes when the caller holds an admin grant for {@code spaceId} (it may remove history), or
   * when the server has no access control.
   *
   * @throws AccessDeniedException naming the grant that is missing
   */
  public void checkAdmin(String method, String spaceId) {
    check(method, spaceId, false);
    if (grants.isPresent() && !grants.get().administers(spaceId)) {
      throw denied(method + " removes history of space '" + RateLimitedLog.clip(spaceId)
          + "' and needs an admin grant for it (an access-tokens line 'HASH admin SPACES', or \"admin\" in a"
          + " token's grants claim)");
    }
  }

  private static AccessDeniedException denied(String message) {
    return new AccessDeniedException(true, message);
  }
}
