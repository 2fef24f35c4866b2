package dev.feedstore.core.query.result;

import dev.feedstore.core.query.DocumentId;
import dev.feedstore.core.query.Row;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The net difference between two consecutive states of a result: the rows that entered it, the rows
 * that stayed and changed (with the row before), and the rows that left it (as they were). Each
 * list is ordered by document key, and a document is in at most one of them. A row that only moved
 * in the order is not a change; a row pushed out of a limited result leaves, and the one that moves
 * into its place enters.
 *
 * <p>A transport stamps a batch with what it needs (a position, a resume token); the batch itself
 * is the same everywhere. Thread-safe (immutable).
 */
public record ChangeBatch(List<Row> entered, List<RowUpdate> updated, List<Row> left) {
  /** No change. */
  public static final ChangeBatch EMPTY = new ChangeBatch(List.of(), List.of(), List.of());

  private static final Comparator<Row> BY_KEY = Comparator.comparing(Row::id);
  private static final Comparator<RowUpdate> UPDATES_BY_KEY = Comparator.comparing(update -> update.current().id());

  /**
   * @throws IllegalArgumentException if a list is not ordered by key or a document appears twice
   */
  public ChangeBatch {
    entered = List.copyOf(entered);
    updated = List.copyOf(updated);
    left = List.copyOf(left);
    Set<DocumentId> ids = new HashSet<>();
    requireOrdered("entered", entered, Function.identity(), ids);
    requireOrdered("updated", updated, RowUpdate::current, ids);
    requireOrdered("left", left, Function.identity(), ids);
  }

  private static <T> void requireOrdered(String list, List<T> changes, Function<T, Row> row, Set<DocumentId> ids) {
    for (int i = 0; i < changes.size(); i++) {
      Row current = row.apply(changes.get(i));
      if (i > 0 && BY_KEY.compare(row.apply(changes.get(i - 1)), current) >= 0) {
        throw new IllegalArgumentException(list + " rows must be ordered by key, " + row.apply(changes.get(i - 1)).id()
            + " came before " + current.id());
      }
      if (!ids.add(current.id())) {
        throw new IllegalArgumentException("document " + current.id() + " changes twice in one batch");
      }
    }
  }

  /** The changes that turn a result holding {@code before} into one holding {@code after} (rows in any order). */
  public static ChangeBatch between(Collection<Row> before, Collection<Row> after) {
    Map<DocumentId, Row> was = new LinkedHashMap<>();
    before.forEach(row -> was.put(row.id(), row));
    Map<DocumentId, Row> is = new LinkedHashMap<>();
    after.forEach(row -> is.put(row.id(), row));
    Set<DocumentId> ids = new HashSet<>(was.keySet());
    ids.addAll(is.keySet());
    Builder batch = new Builder();
    ids.forEach(id -> batch.add(was.get(id), is.get(id)));
    return batch.build();
  }

  /**
   * The net change of this batch followed by {@code next}, which must follow it: what turns the
   * result before this batch into the result after {@code next}, each document once, from its row
   * before this batch to its row after {@code next} (a row that entered and then left is no change).
   * A transport sends it in place of the two when it would send both at once.
   */
  public ChangeBatch then(ChangeBatch next) {
    if (next.isEmpty()) {
      return this;
    }
    if (isEmpty()) {
      return next;
    }
    Map<DocumentId, Row> before = new HashMap<>();
    Map<DocumentId, Row> after = new LinkedHashMap<>();
    for (ChangeBatch batch : List.of(this, next)) {
      batch.entered.forEach(row -> noteChange(before, after, row.id(), null, row));
      batch.updated.forEach(update -> noteChange(before, after, update.current().id(), update.previous(),
          update.current()));
      batch.left.forEach(row -> noteChange(before, after, row.id(), row, null));
    }
    Builder batch = new Builder();
    after.forEach((id, row) -> batch.add(before.get(id), row));
    return batch.build();
  }

  /** Notes a document's change from {@code was} to {@code is}: its first row before stays, its last row after wins. */
  private static void noteChange(Map<DocumentId, Row> before, Map<DocumentId, Row> after, DocumentId id, Row was,
      Row is) {
    if (!after.containsKey(id)) {
      before.put(id, was);
    }
    after.put(id, is);
  }

  /** True when nothing entered, changed or left: a batch a transport need not send. */
  public boolean isEmpty() {
    return entered.isEmpty() && updated.isEmpty() && left.isEmpty();
  }

  /** How many documents changed. */
  public int size() {
    return entered.size() + updated.size() + left.size();
  }

  /** Collects the changes of documents one at a time, in any order. Not thread-safe. */
  static final class Builder {
    private final List<Row> entered = new ArrayList<>();
    private final List<RowUpdate> updated = new ArrayList<>();
    private final List<Row> left = new ArrayList<>();

    /** The change of one document from {@code before} to {@code after}, each null when not in the result. */
    void add(Row before, Row after) {
      if (before == null && after != null) {
        entered.add(after);
      } else if (before != null && after == null) {
        left.add(before);
      } else if (before != null && !before.equals(after)) {
        updated.add(new RowUpdate(before, after));
      }
    }

    ChangeBatch build() {
      entered.sort(BY_KEY);
      updated.sort(UPDATES_BY_KEY);
      left.sort(BY_KEY);
      return entered.isEmpty() && updated.isEmpty() && left.isEmpty() ? EMPTY
          : new ChangeBatch(entered, updated, left);
    }
  }
}
