package dev.feedstore.postgres.internal;

import java.sql.SQLException;

/**
 * A statement failed; carries the driver's exception to the end of the transaction, where the store
 * rolls back and translates it ({@link PgFaults}). Unchecked, so that the store's views can throw it
 * through work written against the store interfaces.
 */
final class SqlFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  SqlFailure(String what, SQLException cause) {
    super(what + ": " + cause.getMessage(), cause);
  }

  SQLException sqlException() {
    return (SQLException) getCause();
  }
}
