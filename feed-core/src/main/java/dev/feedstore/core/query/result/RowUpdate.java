package dev.feedstore.core.query.result;

import dev.feedstore.core.query.Row;
import java.util.Objects;

/**
 * A row that stayed in a result and changed: the row before and the row now, of one document.
 * Thread-safe (immutable).
 */
public record RowUpdate(Row previous, Row current) {
  /**
   * The update of one document's row from {@code previous} to {@code current}.
   *
   * @throws NullPointerException if a row is null
   * @throws IllegalArgumentException if the rows are of two documents, or equal
   */
  public RowUpdate {
    Objects.requireNonNull(previous, "previous");
    Objects.requireNonNull(current, "current");
    if (!previous.id().equals(current.id())) {
      throw new IllegalArgumentException("an update is of one document, was " + previous.id() + " and " + current.id());
    }
    if (previous.equals(current)) {
      throw new IllegalArgumentException("an update changes its row, was the same " + current);
    }
  }
}
