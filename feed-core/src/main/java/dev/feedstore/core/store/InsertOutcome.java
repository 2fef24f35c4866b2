package dev.feedstore.core.store;

import dev.feedstore.core.Block;

/** What {@link BlockLog#insert} did with one block. */
public sealed interface InsertOutcome {

  /** What offering {@code offered} did when the store holds {@code held} under its key already. */
  static InsertOutcome ofHeld(Block held, Block offered) {
    return held.sameContentAs(offered) ? new Duplicate(held) : new Conflict(held, offered);
  }

  /** The block the store holds under the key after the call. */
  Block stored();

  /** The key was new; the block was stored as given. */
  record Inserted(Block stored) implements InsertOutcome {}

  /** The key was stored already with the same content; nothing changed. */
  record Duplicate(Block stored) implements InsertOutcome {}

  /** The key was stored already with different content; nothing changed. */
  record Conflict(Block stored, Block offered) implements InsertOutcome {}
}
