package dev.feedstore.server.internal.errors;

import dev.feedstore.core.BlockKey;
import java.util.List;

/**
 * An Append offered blocks whose keys are stored already with different content (key,
 * predecessor, timestamp or data differ). Nothing was written. The client re-keys its local blocks
 * and pushes again (DESIGN 5.3).
 */
public final class AppendConflictException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  /** Keys are listed in the message up to about this many characters. */
  private static final int LISTED_CHARS = 1000;

  private final transient List<BlockKey> keys;

  public AppendConflictException(List<BlockKey> keys) {
    super(message(keys));
    this.keys = List.copyOf(keys);
  }

  /** Every conflicting key, in request order. */
  public List<BlockKey> keys() {
    return keys;
  }

  private static String message(List<BlockKey> keys) {
    StringBuilder listed = new StringBuilder();
    int shown = 0;
    for (BlockKey key : keys) {
      String text = key.toString();
      if (shown > 0 && listed.length() + text.length() > LISTED_CHARS) {
        break;
      }
      listed.append(shown == 0 ? "" : ", ").append(text);
      shown++;
    }
    String more = shown < keys.size() ? " and " + (keys.size() - shown) + " more" : "";
    return keys.size() + " block key(s) are stored with different content: " + listed + more
        + "; nothing was written. Give these blocks new sequences and append again";
  }
}
