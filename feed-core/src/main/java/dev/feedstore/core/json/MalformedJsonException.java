package dev.feedstore.core.json;

/**
 * Bytes or text that are not JSON by {@link JsonReader}'s rules. The message says what is wrong
 * and {@link #offset()} where (in UTF-8 bytes from the start of the input). Carries no stack
 * trace: blocks that are not JSON are an ordinary outcome, not a fault.
 */
public final class MalformedJsonException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Where the problem was found, in UTF-8 bytes from the start of the input. */
  private final int offset;

  /** {@code problem} (what is wrong, e.g. {@code "an unterminated string"}) found at byte {@code offset}. */
  public MalformedJsonException(String problem, int offset) {
    super(problem + " at byte " + offset, null, false, false);
    this.offset = offset;
  }

  /** Where the problem was found, in bytes from the start of the input. */
  public int offset() {
    return offset;
  }
}
