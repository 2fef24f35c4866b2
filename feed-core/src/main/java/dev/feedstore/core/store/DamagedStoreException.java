package dev.feedstore.core.store;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A store's file is damaged (a torn write, a bad sector: its pages are not what was written), as a
 * check of the file found when it was opened; the file was not served, and nothing was written to
 * it. The message names the file, the first problems found and what to do; {@link #file()} and
 * {@link #problems()} carry them as values.
 */
public final class DamagedStoreException extends StoreException {
  private static final long serialVersionUID = 1L;
  /** How many of the problems the message quotes. */
  private static final int QUOTED = 3;

  private final transient Path file;
  /** What the check found, in its own words; never empty. */
  private final List<String> problems;

  /**
   * {@code file} is damaged, as {@code check} found.
   *
   * @param check what found the damage, e.g. {@code "SQLite's quick_check"}
   * @param problems what it found, in its own words; not empty
   * @param fix what the file's user does about it, said last
   * @throws NullPointerException if {@code file} is null
   * @throws IllegalArgumentException if {@code problems} is empty
   */
  public DamagedStoreException(Path file, String check, List<String> problems, String fix) {
    super(message(file, check, problems, fix));
    this.file = file;
    this.problems = List.copyOf(problems);
  }

  /** The damaged file. */
  public Path file() {
    return file;
  }

  /** What the check found, in its own words. */
  public List<String> problems() {
    return problems;
  }

  private static String message(Path file, String check, List<String> problems, String fix) {
    Objects.requireNonNull(file, "file");
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("a damaged store has problems to name; none were given");
    }
    List<String> quoted = problems.subList(0, Math.min(QUOTED, problems.size()));
    return "database file " + file + " is damaged: " + check + " found "
        + (problems.size() > QUOTED ? problems.size() + " problems, the first: " : "") + String.join("; ", quoted)
        + ". " + fix;
  }
}
