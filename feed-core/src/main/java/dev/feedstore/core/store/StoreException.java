package dev.feedstore.core.store;

/**
 * The storage failed: the file could not be opened, read or written, or it holds something this code
 * cannot use. Unchecked, like jOOQ's {@code DataAccessException}: callers rarely recover from it
 * locally. The message says which file and what happened.
 */
public class StoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** A failure that {@code message} describes: which file, and what happened. */
  public StoreException(String message) {
    super(message);
  }

  /** A failure that {@code message} describes, caused by {@code cause} (the driver's exception, say). */
  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
