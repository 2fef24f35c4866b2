package dev.feedstore.client.internal;

import dev.feedstore.client.ReplicaInUseException;
import dev.feedstore.core.store.StoreException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The exclusive lock a replica holds on its file while open: an operating-system lock on a companion
 * file, {@code FILE-lock}, which also names the process that holds it. The operating system drops
 * the lock when the process ends, however it ends, so a crash leaves nothing to clean up; the
 * companion file itself stays (it is never deleted, which would let two openers lock two files).
 *
 * <p>Not a lock on the database file: SQLite locks parts of it itself, and closing any other
 * handle of a file that a process has locked drops that process's locks on it. Within one process
 * the lock is kept in a set of paths, so that a second open never touches the companion file.
 * Thread-safe.
 */
public final class ReplicaLock implements AutoCloseable {
  /** The companion files this process holds locked, by absolute path. */
  private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

  private final Path lockFile;
  private final FileChannel channel;
  private final FileLock lock;
  /** Whether acquiring created the companion file (so that a failed open leaves nothing behind). */
  private final boolean created;

  private ReplicaLock(Path lockFile, FileChannel channel, FileLock lock, boolean created) {
    this.lockFile = lockFile;
    this.channel = channel;
    this.lock = lock;
    this.created = created;
  }

  /**
   * Locks {@code file} for this replica.
   *
   * @throws ReplicaInUseException if another process, or another replica of this one, holds it
   * @throws StoreException if the companion file cannot be created (the directory is missing or
   *     read-only)
   */
  public static ReplicaLock acquire(Path file) {
    Path absolute = file.toAbsolutePath().normalize();
    Path lockFile = companion(absolute);
    if (!HELD.add(lockFile)) {
      throw new ReplicaInUseException(absolute, "another Replica of this process");
    }
    FileChannel channel = null;
    try {
      boolean created = !Files.exists(lockFile);
      channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null;
      }
      if (lock == null) {
        String holder = holder(channel);
        channel.close();
        HELD.remove(lockFile);
        throw new ReplicaInUseException(absolute, holder);
      }
      byte[] pid = (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII);
      channel.truncate(0);
      channel.write(ByteBuffer.wrap(pid), 0);
      return new ReplicaLock(lockFile, channel, lock, created);
    } catch (IOException e) {
      closeQuietly(channel);
      HELD.remove(lockFile);
      throw new StoreException("cannot lock replica file " + absolute + " (with " + lockFile.getFileName() + " beside it): "
          + e + "; the directory must exist and be writable", e);
    } catch (RuntimeException e) {
      HELD.remove(lockFile);
      throw e;
    }
  }

  /**
   * The companion file that holds the lock of {@code file}, in its directory's real path, so that
   * two names of one directory (a symbolic link) are one lock in this process too.
   */
  public static Path companion(Path file) {
    Path absolute = file.toAbsolutePath().normalize();
    Path directory = absolute.getParent();
    try {
      directory = directory.toRealPath();
    } catch (IOException e) {
      // a missing directory: creating the companion file fails and says so
    }
    return directory.resolve(absolute.getFileName() + "-lock");
  }

  /** Releases the lock; idempotent. */
  @Override
  public void close() {
    if (!channel.isOpen()) {
      return;
    }
    try {
      lock.release();
    } catch (IOException e) {
      // closing the channel releases it anyway
    }
    closeQuietly(channel);
    HELD.remove(lockFile);
  }

  /**
   * Releases the lock of a replica whose file could not be opened after all (not a feed store, a
   * newer version): the companion file goes too if acquiring created it, so that nothing is left
   * beside a file that is not this library's.
   */
  public void abandon() {
    close();
    if (created) {
      try {
        Files.deleteIfExists(lockFile);
      } catch (IOException e) {
        // an empty companion file is harmless
      }
    }
  }

  /** Who holds the lock, as the holder wrote it: {@code process N}. */
  private static String holder(FileChannel channel) {
    try {
      ByteBuffer buffer = ByteBuffer.allocate(32);
      channel.read(buffer, 0);
      String pid = new String(buffer.array(), 0, buffer.position(), StandardCharsets.US_ASCII).strip();
      return pid.matches("\\d+") ? "process " + pid : "another process";
    } catch (IOException e) {
      return "another process";
    }
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException e) {
        // nothing more to release
      }
    }
  }
}
