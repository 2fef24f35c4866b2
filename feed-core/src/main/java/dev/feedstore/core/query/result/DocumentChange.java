package dev.feedstore.core.query.result;

import dev.feedstore.core.query.DocumentId;
import dev.feedstore.core.query.ParsedBlock;
import java.util.Objects;

/**
 * What a caller tells a {@link LiveResult} about one document: its current version is now this
 * block ({@link Current}; the document is the one the block's key names), or it has no version in
 * the scope any more ({@link Removed}: compaction took its versions, a rollback removed them). The
 * caller knows the order of versions and decides which is current; the result does not.
 * Thread-safe (immutable).
 */
public sealed interface DocumentChange permits DocumentChange.Current, DocumentChange.Removed {

  /** The document of {@code version} has it as its current version. */
  static DocumentChange current(ParsedBlock version) {
    return new Current(version);
  }

  /** Document {@code id} has no version any more. */
  static DocumentChange removed(DocumentId id) {
    return new Removed(id);
  }

  /** A document's new current version. */
  record Current(ParsedBlock version) implements DocumentChange {
    /**
     * {@code version} is current.
     *
     * @throws NullPointerException if {@code version} is null
     */
    public Current {
      Objects.requireNonNull(version, "version");
    }
  }

  /** A document without versions. */
  record Removed(DocumentId id) implements DocumentChange {
    /**
     * Document {@code id} has no version.
     *
     * @throws NullPointerException if {@code id} is null
     */
    public Removed {
      Objects.requireNonNull(id, "id");
    }
  }
}
