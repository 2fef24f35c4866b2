package dev.feedstore.core.query.result;

import dev.feedstore.core.query.DocumentId;
import dev.feedstore.core.query.Row;

/**
 * A document that matches a query, with its row, and whether the row is in the result (within the
 * limit). Not thread-safe: owned by one {@link LiveResult}.
 */
final class Member {
  final DocumentId id;
  final Row row;
  /** True while the row is among the first {@code limit} members, so in the result. */
  boolean shown;

  Member(DocumentId id, Row row) {
    this.id = id;
    this.row = row;
  }

  @Override
  public String toString() {
    return (shown ? "shown " : "hidden ") + row;
  }
}
