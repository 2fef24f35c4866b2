package dev.feedstore.core.store;

/**
 * A change would have stored two blocks under one key or at one position, which the store forbids.
 * The message names the constraint and the values.
 */
public final class UniquenessViolationException extends StoreException {
  private static final long serialVersionUID = 1L;

  /** The uniqueness rule that was broken. */
  private final String constraint;

  /** The rule {@code constraint} was broken, as {@code message} says with the values; {@code cause} is the driver's. */
  public UniquenessViolationException(String constraint, String message, Throwable cause) {
    super(message, cause);
    this.constraint = constraint;
  }

  /** Which uniqueness rule was broken, e.g. {@code (feed, position)}. */
  public String constraint() {
    return constraint;
  }
}
