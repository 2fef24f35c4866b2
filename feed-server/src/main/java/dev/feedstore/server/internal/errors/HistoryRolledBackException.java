package dev.feedstore.server.internal.errors;

import dev.feedstore.core.SpaceId;

/**
 * The history of a space went back under an open live stream: its store was restored from a backup,
 * or failed over to a copy that had not received the last commits, and lost positions this server
 * had seen (a rollback, DESIGN 5.2). The stream ends with it, so that its client connects again from
 * its cursor and checks what it holds against the history the store has now: a replica's rollback
 * check does this by itself. gRPC {@code ABORTED}, reason {@code HISTORY_ROLLED_BACK}; Server-Sent
 * Events {@code event: rolled-back}.
 */
public final class HistoryRolledBackException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final SpaceId spaceId;
  private final long highest;

  /** @param highest the space's highest position after it went back */
  public HistoryRolledBackException(SpaceId spaceId, long highest) {
    super("the history of space " + spaceId + " went back while this stream was open (its store was restored from a"
        + " backup, or failed over and lost commits); its highest position is now " + highest + ". Connect again"
        + " from your cursor and check what you hold against the answer (a replica does this by itself)");
    this.spaceId = spaceId;
    this.highest = highest;
  }

  public SpaceId spaceId() {
    return spaceId;
  }

  /** The space's highest position after it went back. */
  public long highest() {
    return highest;
  }
}
