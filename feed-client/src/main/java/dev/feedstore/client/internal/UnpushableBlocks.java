package dev.feedstore.client.internal;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Scope;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Which blocks of a space sync leaves out of its pushes ({@link dev.feedstore.client.Replica#refused}):
 * unpositioned blocks of the feeds the authority closed, and unpositioned blocks of replicated
 * feeds whose data is over the largest a push carries. A refused block is never a version of a
 * live query's document: it is on no other replica, and may never be. Immutable.
 *
 * @param rules what sync knows now
 * @param replicated the feeds sync pushes
 */
record UnpushableBlocks(Rules rules, Scope replicated) {
  /**
   * What sync knows of a space's refusals, in memory: told again ({@link QueryHub#reread}) when it
   * changes.
   *
   * @param maxData the largest data a push carries, by the limits sync last learned
   * @param closedFeeds the feeds the authority takes no new blocks in
   */
  record Rules(int maxData, Set<FeedId> closedFeeds) {
    Rules {
      closedFeeds = Set.copyOf(closedFeeds);
    }

    /** Whether sync may leave out this block of a local append (the feeds it replicates aside). */
    boolean mayLeaveOut(Block block) {
      return block.data().size() > maxData || closedFeeds.contains(block.feedId());
    }
  }

  UnpushableBlocks {
    Objects.requireNonNull(rules, "rules");
    Objects.requireNonNull(replicated, "replicated");
  }

  /** Whether sync leaves the block out. */
  boolean leaveOut(Block block, Optional<Namespace> namespace) {
    return !block.isPositioned() && (rules.closedFeeds().contains(block.feedId())
        || block.data().size() > rules.maxData() && replicated.covers(block.feedId(), namespace));
  }
}
