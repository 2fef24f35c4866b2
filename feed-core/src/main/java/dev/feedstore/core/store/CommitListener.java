package dev.feedstore.core.store;

import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;

/**
 * Told of commits that other processes made to a store they share ({@link
 * AuthorityStore#listen}): that a space's highest position moved, and that commits may have been
 * missed (the store lost its way of hearing of them for a while). It says where to read, never what
 * was written: the blocks are read from the store.
 *
 * <p>Called on the store's own thread, one call at a time, in commit order. {@link #committed}
 * returns quickly and never blocks; {@link #missedCommits} may read the store, and the store tells
 * nothing more until it returns, so that what it reads is never overtaken by an older commit told
 * after it.
 */
public interface CommitListener {

  /** Blocks up to {@code highest} are committed in the space, by another process. */
  void committed(SpaceId spaceId, Position highest);

  /**
   * Commits may have been made without this listener being told (it heard nothing for a while and
   * hears again from now on): every space may have moved, forward or, after a restore, back. Read
   * the highest position of each space again, before returning.
   */
  void missedCommits();
}
