package dev.feedstore.client.internal;

import dev.feedstore.core.Block;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Scope;
import java.util.Optional;

/**
 * Which blocks of a space sync leaves out of its pushes as larger than the authority takes ({@link
 * dev.feedstore.client.Replica#refused}): unpositioned blocks of replicated feeds whose data is over
 * the largest a push carries. A refused block is never a version of a live query's document: it
 * is on no other replica, and may never be. Immutable.
 *
 * @param maxData the largest data a push carries, by the limits sync last learned
 * @param replicated the feeds sync pushes
 */
record UnpushableBlocks(int maxData, Scope replicated) {
  /** Whether sync leaves the block out. */
  boolean leaveOut(Block block, Optional<Namespace> namespace) {
    return !block.isPositioned() && block.data().size() > maxData && replicated.covers(block.feedId(), namespace);
  }
}
