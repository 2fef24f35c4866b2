package dev.feedstore.core.sync;

import dev.feedstore.core.BlockKey;
import java.util.List;

/**
 * The authority holds some of the appended keys with different content (for example because this
 * replica was restored from an old backup and wrote again under used sequence numbers). Nothing of
 * the append was written.
 */
public final class SequenceConflictException extends AuthorityException {
  private static final long serialVersionUID = 1L;

  private final List<BlockKey> keys;

  public SequenceConflictException(List<BlockKey> keys, String message) {
    this(keys, message, null);
  }

  /** @param cause the authority's answer as its transport reported it */
  public SequenceConflictException(List<BlockKey> keys, String message, Throwable cause) {
    super(message, false, cause);
    this.keys = List.copyOf(keys);
  }

  /** The keys the authority holds with other content. */
  public List<BlockKey> keys() {
    return keys;
  }
}
