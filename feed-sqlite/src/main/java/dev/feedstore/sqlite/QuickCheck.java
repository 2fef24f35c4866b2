package dev.feedstore.sqlite;

import dev.feedstore.core.store.DamagedStoreException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What SQLite's {@code PRAGMA quick_check} found in a store's file, checked one table at a time
 * (each with its indexes): the structure of every b-tree page of the table (a page that cannot be
 * read as one, cells out of bounds, pages used twice or lost within the table) and its rows'
 * constraints, without checking that indexes match their tables as {@code integrity_check} does,
 * which SQLite documents as what makes it faster. Pages that belong to no table (the free list) are
 * not accounted: that needs a check of the whole file at once, and a check by table can say which
 * tables it checked whole when its time runs out.
 *
 * @param checked the tables checked whole, with their indexes
 * @param unchecked the tables not checked whole: the check ran out of time in the first of them, or
 *     stopped at damage before them
 * @param problems what it found wrong, in SQLite's words (empty when nothing was), at most {@value
 *     #MAX_PROBLEMS}
 * @param elapsed how long it ran
 */
public record QuickCheck(List<String> checked, List<String> unchecked, List<String> problems, Duration elapsed) {
  /** The most problems one check reports: the first ones say enough. */
  public static final int MAX_PROBLEMS = 10;

  /** Copies the lists. */
  public QuickCheck {
    checked = List.copyOf(checked);
    unchecked = List.copyOf(unchecked);
    problems = List.copyOf(problems);
    Objects.requireNonNull(elapsed, "elapsed");
  }

  /** Whether every table of the file was checked whole. */
  public boolean complete() {
    return unchecked.isEmpty();
  }

  /** Whether the check found damage. A check that did not complete may have missed some. */
  public boolean damaged() {
    return !problems.isEmpty();
  }

  /**
   * What was checked, in a few words: {@code "quick_check ok: 14 tables checked whole in 20 ms"}, or
   * for a check that did not complete, which tables were and were not checked whole. Never says
   * "ok" for a table it did not check whole.
   */
  public String summary() {
    String tables = checked.size() + (checked.size() == 1 ? " table" : " tables");
    if (damaged()) {
      return "quick_check found damage after " + elapsed.toMillis() + " ms: " + String.join("; ", problems);
    }
    if (complete()) {
      return "quick_check ok: " + tables + " checked whole in " + elapsed.toMillis() + " ms";
    }
    return "quick_check incomplete: " + tables + " of " + (checked.size() + unchecked.size())
        + " checked whole in " + elapsed.toMillis() + " ms without damage; not checked whole: "
        + String.join(", ", unchecked);
  }

  /**
   * Throws if the check found damage; does nothing otherwise.
   *
   * @param file the file that was checked
   * @param fix what its user does about the damage (restore a backup, start afresh), said last
   * @throws DamagedStoreException naming the file, the first problems and {@code fix}
   */
  public void refuseDamaged(Path file, String fix) {
    if (damaged()) {
      throw new DamagedStoreException(file, "SQLite's quick_check", problems, fix);
    }
  }
}
