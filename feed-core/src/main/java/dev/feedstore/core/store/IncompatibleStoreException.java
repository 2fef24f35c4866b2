package dev.feedstore.core.store;

/**
 * The file cannot be used by this version of the code: its schema is newer than the code knows, or
 * it is not a feed store at all. Nothing in the file was changed.
 */
public final class IncompatibleStoreException extends StoreException {
  private static final long serialVersionUID = 1L;

  /** The file cannot be used, as {@code message} says: which file, what it holds, and what this code reads. */
  public IncompatibleStoreException(String message) {
    super(message);
  }
}
