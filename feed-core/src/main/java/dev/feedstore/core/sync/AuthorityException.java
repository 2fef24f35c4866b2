package dev.feedstore.core.sync;

/**
 * A call to the authority failed. When it is {@link #retryable()} (unreachable, shutting down,
 * deadline), the same step can simply be tried again later; the call may or may not have taken
 * effect, which the sync logic tolerates because appends are idempotent.
 */
public class AuthorityException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final boolean retryable;

  public AuthorityException(String message, boolean retryable, Throwable cause) {
    super(message, cause);
    this.retryable = retryable;
  }

  public boolean retryable() {
    return retryable;
  }
}
