package dev.feedstore.server.internal.spaces;

import java.util.OptionalLong;

/**
 * What this process knew of a space's history when it read the space again after commits may have
 * been missed: the highest position it had seen committed, and the highest position of which one of
 * its streams sent a block, with the history chain there. A store that now holds fewer positions, or
 * another chain there (the chain covers every block up to its position), lost history this process
 * had seen: it was restored from a backup, or failed over and lost commits, and positions may be
 * handed out again to other blocks.
 *
 * @param committed the highest position the space's tail had recorded
 * @param chainedAt the highest position whose block a stream sent with its chain; 0 when none
 * @param chain the history chain at {@code chainedAt}, when one was sent
 */
public record KnownHistory(long committed, long chainedAt, OptionalLong chain) {
  /**
   * What the store holds, read again in one snapshot.
   *
   * @param highest the space's highest position
   * @param chainAtChained the chain the store has at {@link #chainedAt}, if any
   * @param floor the space's floor: history at or below it is compacted away, its chain unchecked
   */
  public record Stored(long highest, OptionalLong chainAtChained, long floor) {}

  /** True when {@code stored} lost history this process had seen. */
  boolean lostIn(Stored stored) {
    if (stored.highest() < Math.max(committed, chainedAt)) {
      return true;
    }
    return chain.isPresent() && chainedAt > stored.floor() && !chain.equals(stored.chainAtChained());
  }
}
