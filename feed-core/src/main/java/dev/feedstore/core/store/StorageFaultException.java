package dev.feedstore.core.store;

import java.nio.file.Path;
import java.util.Objects;

/**
 * The storage under a store failed in a way its operator resolves, not its caller: the disk is
 * full, the file is read-only, the disk reported an I/O error, or the file is damaged. The message
 * names the file, the problem and what to do about it; {@link #kind()} and {@link #file()} carry
 * them as values.
 *
 * <p>Nothing of the failed transaction was committed, and the store stays open and usable: once the
 * cause is gone (space freed, the file made writable) the next transaction succeeds, without
 * reopening the store. Only a commit that failed on an I/O error while being made durable may be
 * found committed later (SQLite, like the disk, cannot tell); work that can be repeated, such as an
 * append of the same blocks, is safe to retry.
 */
public final class StorageFaultException extends StoreException {
  private static final long serialVersionUID = 1L;

  /** What went wrong with the storage. */
  public enum Kind {
    /** The file system holding the file has no room for what is written. */
    FULL,
    /** The file, or its directory, cannot be written by this process. */
    READ_ONLY,
    /** The operating system reported an I/O error while reading or writing the file. */
    IO,
    /** The file's content is not what was written: it is damaged. */
    CORRUPT,
    /**
     * The database server holding the store cannot be reached (a store served by another process,
     * such as PostgreSQL): the connection was lost or refused. Nothing of the failed transaction was
     * committed, except that a commit whose answer was lost may have been made.
     */
    UNREACHABLE
  }

  /** What went wrong. */
  private final Kind kind;
  /** The file whose storage failed; not serialized ({@code Path} is not serializable). */
  private final transient Path file;
  /** What failed, in the storage's own words; empty if nothing more was said. */
  private final String detail;

  /**
   * The storage of {@code file} failed as {@code kind} says; {@code cause} is the storage's own exception.
   *
   * @param detail what failed, in the storage's own words (e.g. the SQLite error), appended in
   *     parentheses; null or empty for nothing more
   * @throws NullPointerException if {@code kind} or {@code file} is null
   */
  public StorageFaultException(Kind kind, Path file, String detail, Throwable cause) {
    super(describe(kind, file) + (detail == null || detail.isEmpty() ? "" : " (" + detail + ")"), cause);
    this.kind = Objects.requireNonNull(kind, "kind");
    this.file = Objects.requireNonNull(file, "file");
    this.detail = detail == null ? "" : detail;
  }

  /** What went wrong, which decides what the operator does. */
  public Kind kind() {
    return kind;
  }

  /** What failed, in the storage's own words; empty if nothing more was said. */
  public String detail() {
    return detail;
  }

  /** The database file whose storage failed (for a database served by another process, its name). */
  public Path file() {
    return file;
  }

  /** What {@code kind} means for {@code file}, and what its operator does about it. */
  public static String describe(Kind kind, Path file) {
    return switch (kind) {
      case FULL -> "the disk holding " + file + " is full: free space on it; writes succeed again as soon as"
          + " there is room, and nothing committed before is lost";
      case READ_ONLY -> file + " is read-only: make the file and its directory writable by this process;"
          + " writes succeed again as soon as they are";
      case IO -> "reading or writing " + file + " failed with an I/O error: check the disk (the system log names"
          + " the device); nothing committed before is lost unless the disk lost it";
      case CORRUPT -> file + " is damaged (its content is not what was written): stop writing to it and restore"
          + " it from a backup";
      case UNREACHABLE -> "the database " + file + " cannot be reached: check that its server runs and that this"
          + " host may connect to it; transactions succeed again as soon as it can be reached";
    };
  }
}
