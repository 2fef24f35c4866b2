package dev.feedstore.server.internal.append;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import java.util.Map;
import java.util.Optional;

/**
 * Whether an append's caller may write to its feeds, asked in the append's own transaction once the
 * feeds' namespaces are known as stored (a feed the append creates: the namespace it creates it
 * with), so that no append that commits beside it can change the answer: a feed's namespace is set
 * once, by the transaction that creates it. Implementations must not block.
 */
@FunctionalInterface
public interface FeedWriteCheck {
  /** Every feed may be written: the caller's grants cover the whole space. */
  FeedWriteCheck ANY = (spaceId, feeds) -> { };

  /**
   * Passes, or throws the refusal ({@code AccessDeniedException}), which fails the append alone and
   * rolls back what its transaction did.
   *
   * @param feeds each feed of the append with its namespace as stored ({@code Optional.empty()}: none)
   */
  void check(SpaceId spaceId, Map<FeedId, Optional<Namespace>> feeds);
}
