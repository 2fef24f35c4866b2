package dev.feedstore.core.sync;

/**
 * An append sent in order after another append of the same feed that the authority refused
 * ({@link Authority#appendInOrder}): nothing of it was written, as its blocks may follow the refused
 * ones. It is sent again once that refusal is handled; it is not an outage.
 */
public final class AppendAbortedException extends AuthorityException {
  private static final long serialVersionUID = 1L;

  public AppendAbortedException(String message, Throwable cause) {
    super(message, false, cause);
  }
}
