package dev.feedstore.core.sync;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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
   * Sends several appends of one space in order, and returns how each ended, in the same order. The
   * appends of one feed commit in order; once one fails, every later one naming one of its feeds
   * fails with {@link AppendAbortedException} and writes nothing (its blocks may follow the failed
   * ones): the caller sends it again after handling that failure. Appends of other feeds go on.
   * Implementations may keep the calls in flight together; this one sends them one at a time.
   */
  default List<AppendOutcome> appendInOrder(SpaceId spaceId, List<AppendCall> calls) {
    List<AppendOutcome> outcomes = new ArrayList<>(calls.size());
    Set<FeedId> failed = new HashSet<>();
    for (AppendCall call : calls) {
      Set<FeedId> feeds = call.feeds();
      if (feeds.stream().anyMatch(failed::contains)) {
        failed.addAll(feeds);
        outcomes.add(AppendOutcome.failed(new AppendAbortedException("append to " + spaceId + " not sent: an earlier"
            + " append of its feeds failed", null)));
        continue;
      }
      try {
        outcomes.add(AppendOutcome.replied(append(spaceId, call.namespace(), call.blocks())));
      } catch (AuthorityException e) {
        failed.addAll(feeds);
        outcomes.add(AppendOutcome.failed(e));
      }
    }
    return outcomes;
  }

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
