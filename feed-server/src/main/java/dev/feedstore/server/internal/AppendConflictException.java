package dev.feedstore.server.internal;

import dev.feedstore.core.BlockKey;
import java.util.List;
import java.util.stream.Collectors;

/**
 * An Append offered blocks whose keys are stored already with different content (key,
 * predecessor, timestamp or data differ). Nothing was written. The client re-keys its local blocks
 * and pushes again (DESIGN 5.3).
 */
public final class AppendConflictException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private static final int KEYS_SHOWN = 20;

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
    String shown = keys.stream().limit(KEYS_SHOWN).map(BlockKey::toString).collect(Collectors.joining(", "));
    String more = keys.size() > KEYS_SHOWN
        ? " and " + (keys.size() - KEYS_SHOWN) + " more (all in the trailer)"
        : "";
    return keys.size() + " block key(s) are stored with different content: " + shown + more
        + "; nothing was written. Give these blocks new sequences and append again";
  }
}
