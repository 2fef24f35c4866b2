package dev.feedstore.core.sync;

import dev.feedstore.core.Block;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import java.util.List;
import java.util.Optional;

/**
 * The position authority as the sync logic sees it: two calls in domain types. The client library
 * implements it over gRPC; tests may wrap it to inject faults. Implementations block until the
 * answer arrives or the call fails.
 */
public interface Authority {

  /**
   * Stores blocks and returns their positions, one per block in order.
   *
   * @throws SequenceConflictException if some keys are stored with different content (nothing was
   *     written)
   * @throws AuthorityLimitException if the request was over one of the authority's limits (nothing
   *     was written; {@link #limits()} now has the lower value)
   * @throws AuthorityException if the call failed; it may or may not have been committed
   */
  AppendReply append(SpaceId spaceId, Optional<Namespace> namespace, List<Block> blocks);

  /**
   * Reads blocks after a cursor.
   *
   * @throws AuthorityException if the call failed
   */
  PullPage pull(PullRequest request);

  /**
   * What the authority accepts in one request, as far as this implementation knows; requests made
   * from it are not refused for their size. The defaults unless the implementation learns better.
   */
  default AuthorityLimits limits() {
    return AuthorityLimits.DEFAULTS;
  }
}
