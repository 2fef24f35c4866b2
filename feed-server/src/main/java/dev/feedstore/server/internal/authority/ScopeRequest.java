package dev.feedstore.server.internal.authority;

import dev.feedstore.core.Scope;
import java.util.Objects;
import java.util.Optional;

/**
 * The scope a Query or Watch asked for: a scope given directly (feeds, a namespace, or the whole
 * space), or a subscription to look up when the request runs.
 *
 * @param direct the scope, used when no subscription is named
 * @param subscriptionId the subscription whose stored scope to use
 */
public record ScopeRequest(Scope direct, Optional<String> subscriptionId) {
  public static final ScopeRequest WHOLE_SPACE = new ScopeRequest(Scope.WHOLE_SPACE, Optional.empty());

  public ScopeRequest {
    Objects.requireNonNull(direct, "direct");
    Objects.requireNonNull(subscriptionId, "subscriptionId");
  }

  public static ScopeRequest of(Scope scope) {
    return new ScopeRequest(scope, Optional.empty());
  }

  public static ScopeRequest subscription(String id) {
    return new ScopeRequest(Scope.NOTHING, Optional.of(id));
  }
}
