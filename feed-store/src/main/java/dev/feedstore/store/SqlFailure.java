package dev.feedstore.store;

import java.sql.SQLException;

/**
 * A statement the database refused or failed, with the {@link SQLException} as its cause. Unchecked,
 * so that the store's views can throw it through work written against the store interfaces; the
 * store rolls the transaction back and turns it into one of its own exceptions, naming the database
 * and the broken rule.
 */
public final class SqlFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** @param action what was being done, for the message */
  public SqlFailure(String action, SQLException cause) {
    super(action + ": " + cause.getMessage(), cause);
  }

  /** The database's exception. */
  public SQLException sqlException() {
    return (SQLException) getCause();
  }
}
