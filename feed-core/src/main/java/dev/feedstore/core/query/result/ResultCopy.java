package dev.feedstore.core.query.result;

import dev.feedstore.core.query.DocumentId;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.Row;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A subscriber's copy of a live result: loaded from a snapshot, then kept by applying each change
 * batch in order. It checks that every batch fits what it holds (an entered row is new, an updated
 * or left row is the one held), so a lost, repeated or reordered batch is noticed, not absorbed.
 *
 * <p>Not thread-safe: a listener keeps it on its own thread.
 */
public final class ResultCopy {
  private final Map<DocumentId, Row> rows = new HashMap<>();
  private final TreeSet<Row> ordered;

  /** An empty copy of a result of {@code query} (its order arranges {@link #rows()}). */
  public ResultCopy(LiveQuery query) {
    this.ordered = new TreeSet<>(query.rowOrder());
  }

  /**
   * Replaces what the copy holds with {@code snapshot}.
   *
   * @throws IllegalArgumentException if two rows have one key; the copy is then unchanged
   */
  public void load(List<Row> snapshot) {
    Map<DocumentId, Row> loaded = new HashMap<>();
    for (Row row : snapshot) {
      if (loaded.put(row.id(), row) != null) {
        throw new IllegalArgumentException("two rows of document " + row.id() + " in one snapshot");
      }
    }
    rows.clear();
    ordered.clear();
    rows.putAll(loaded);
    ordered.addAll(loaded.values());
  }

  /**
   * Applies the next change batch.
   *
   * @throws IllegalStateException if the batch does not fit what the copy holds (a row enters that
   *     is there, or an updated or left row is not the one held); the copy is then unchanged
   */
  public void apply(ChangeBatch batch) {
    for (Row row : batch.entered()) {
      if (rows.containsKey(row.id())) {
        throw new IllegalStateException("row " + row.id() + " entered, but the copy holds " + rows.get(row.id()));
      }
    }
    for (RowUpdate update : batch.updated()) {
      requireHeld(update.previous(), "was updated");
    }
    for (Row row : batch.left()) {
      requireHeld(row, "left");
    }
    for (Row row : batch.left()) {
      ordered.remove(rows.remove(row.id()));
    }
    for (RowUpdate update : batch.updated()) {
      ordered.remove(rows.put(update.current().id(), update.current()));
      ordered.add(update.current());
    }
    for (Row row : batch.entered()) {
      rows.put(row.id(), row);
      ordered.add(row);
    }
  }

  private void requireHeld(Row row, String what) {
    if (!row.equals(rows.get(row.id()))) {
      throw new IllegalStateException("row " + row + " " + what + ", but the copy holds "
          + Optional.ofNullable(rows.get(row.id())).map(Object::toString).orElse("no row of document " + row.id()));
    }
  }

  /** The rows held, in the query's order. */
  public List<Row> rows() {
    return new ArrayList<>(ordered);
  }

  /** The row of document {@code id}, if the copy holds one. */
  public Optional<Row> row(DocumentId id) {
    return Optional.ofNullable(rows.get(Objects.requireNonNull(id, "id")));
  }

  /** How many rows the copy holds. */
  public int size() {
    return rows.size();
  }
}
