package dev.feedstore.core.store;

import dev.feedstore.core.BlockKey;
import dev.feedstore.core.Position;
import dev.feedstore.core.ServerToken;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A replica's progress in one space. Immutable.
 *
 * @param cursor the highest position pulled; pulls ask for blocks after it
 * @param cursorBlock the key the authority reported at {@code cursor}, when known
 * @param cursorChain the authority's {@link dev.feedstore.core.HistoryChain} at {@code cursor}, when
 *     known
 * @param serverToken the token of the authority the positions came from, once one was seen
 * @param replayUntil while a replay after a rollback runs: the authority's highest position when
 *     it began (the replay is over when the cursor reaches it, or when the authority has nothing
 *     more); {@link #REPLAY_BOUND_UNKNOWN} when a replay was decided but the authority's highest
 *     position is not known yet; {@link Position#NONE} when no replay runs
 */
public record SyncState(
    Position cursor,
    Optional<BlockKey> cursorBlock,
    OptionalLong cursorChain,
    Optional<ServerToken> serverToken,
    Position replayUntil) {

  /** A replay is due, and the next pull learns how far it goes. */
  public static final Position REPLAY_BOUND_UNKNOWN = Position.of(Long.MAX_VALUE);

  /** A space never synced. */
  public static final SyncState INITIAL =
      new SyncState(Position.NONE, Optional.empty(), Optional.empty(), Position.NONE);

  /**
   * A state with every part given.
   *
   * @throws NullPointerException if a part is null rather than empty
   */
  public SyncState {
    Objects.requireNonNull(cursor, "cursor");
    Objects.requireNonNull(cursorBlock, "cursorBlock");
    Objects.requireNonNull(cursorChain, "cursorChain");
    Objects.requireNonNull(serverToken, "serverToken");
    Objects.requireNonNull(replayUntil, "replayUntil");
  }

  /** A state whose chain at the cursor is not known. */
  public SyncState(Position cursor, Optional<BlockKey> cursorBlock, Optional<ServerToken> serverToken, Position replayUntil) {
    this(cursor, cursorBlock, OptionalLong.empty(), serverToken, replayUntil);
  }

  /** True while a replay after a rollback runs (or is due and its bound not known yet). */
  public boolean isReplaying() {
    return replayUntil.isAssigned();
  }

  /** The cursor moved to where the authority's chain is not known. */
  public SyncState withCursor(Position newCursor, Optional<BlockKey> newCursorBlock) {
    return new SyncState(newCursor, newCursorBlock, OptionalLong.empty(), serverToken, replayUntil);
  }

  /**
   * The cursor moved to {@code newCursor}, where the authority reported {@code newCursorBlock} and its chain
   * {@code newChain}.
   */
  public SyncState withCursor(Position newCursor, Optional<BlockKey> newCursorBlock, OptionalLong newChain) {
    return new SyncState(newCursor, newCursorBlock, newChain, serverToken, replayUntil);
  }

  /** The same state, recording that the positions come from the authority of {@code token}. */
  public SyncState withServerToken(ServerToken token) {
    return new SyncState(cursor, cursorBlock, cursorChain, Optional.of(token), replayUntil);
  }

  /** The same state with the replay bound {@code until} (see {@link #replayUntil()}; {@link Position#NONE} ends it). */
  public SyncState withReplayUntil(Position until) {
    return new SyncState(cursor, cursorBlock, cursorChain, serverToken, until);
  }
}
