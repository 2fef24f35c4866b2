package dev.feedstore.server.internal.access;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The namespaces a space's feeds were created with, as the store holds them: what namespace grants
 * are checked against ({@link Caller#checkRead}). Implementations read the store and block.
 */
@FunctionalInterface
public interface StoredNamespaces {
  /**
   * The namespace of each of {@code feeds} that the space holds ({@code Optional.empty()} for a feed
   * created without one); feeds the space does not hold are left out.
   */
  Map<FeedId, Optional<Namespace>> of(Set<FeedId> feeds);
}
