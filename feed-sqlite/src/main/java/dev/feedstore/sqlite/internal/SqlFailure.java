package dev.feedstore.sqlite.internal;

import java.sql.SQLException;

/**
 * A statement SQLite refused or failed, with the {@link SQLException} as its cause. Unchecked, so
 * that the store's views can stay free of checked exceptions; the store turns it into one of its own
 * exceptions at the end of the transaction ({@link SqlErrors#translate}), naming the file and the
 * broken rule.
 */
final class SqlFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** @param action what was being done, for the message */
  SqlFailure(String action, SQLException cause) {
    super(action + ": " + cause.getMessage(), cause);
  }
}
