package dev.feedstore.sqlite;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What SQLite's {@code PRAGMA quick_check} found in a store's file: the structure of every b-tree
 * page (a page that is not one, cells out of bounds, pages used twice or lost), without checking
 * that indexes match their tables as {@code integrity_check} does, which SQLite documents as what
 * makes it faster.
 *
 * @param complete whether the check read the whole file; false when it ran out of time
 * @param problems what it found wrong, in SQLite's words (empty when nothing was), at most {@value
 *     #MAX_PROBLEMS}
 * @param elapsed how long it ran
 */
public record QuickCheck(boolean complete, List<String> problems, Duration elapsed) {
  /** The most problems one check reports: the first ones say enough. */
  public static final int MAX_PROBLEMS = 10;

  public QuickCheck {
    problems = List.copyOf(problems);
    Objects.requireNonNull(elapsed, "elapsed");
  }

  /** Whether the check found damage. A check that did not complete may have missed some. */
  public boolean damaged() {
    return !problems.isEmpty();
  }
}
