package dev.feedstore.client;

import dev.feedstore.core.store.StoreException;
import java.nio.file.Path;

/**
 * A replica's file is open already, by another process or by another {@link Replica} of this one:
 * a replica holds an exclusive lock on its file while open. Nothing was changed.
 */
public final class ReplicaInUseException extends StoreException {
  private static final long serialVersionUID = 1L;

  private final transient Path file;

  /** The replica in {@code file} is open in {@code holder} (a process or this one). */
  public ReplicaInUseException(Path file, String holder) {
    super("replica file " + file + " is in use by " + holder + ": a replica file is open in one place at a time;"
        + " close it there first, or give this replica a file of its own");
    this.file = file;
  }

  /** The replica's file. */
  public Path file() {
    return file;
  }
}
