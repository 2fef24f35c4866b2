package dev.feedstore.examples.notes;

import dev.feedstore.core.ActorId;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.Position;
import java.util.Objects;

/**
 * One note: a block of a user's notes feed, its data the note's text (UTF-8).
 *
 * @param key the block's key; its actor is the note's author
 * @param text the note
 * @param writtenAt the author's clock when it was written, Unix ms
 * @param position the place the authority gave it, or {@link Position#NONE} while it is not sent
 */
public record Note(BlockKey key, String text, long writtenAt, Position position) {
  public Note {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(position, "position");
  }

  static Note of(Block block) {
    return new Note(block.key(), block.data().toStringUtf8(), block.timestamp(), block.position());
  }

  public ActorId author() {
    return key.actorId();
  }

  /** True while the authority has not positioned the note: it exists on this replica only. */
  public boolean pending() {
    return !position.isAssigned();
  }
}
