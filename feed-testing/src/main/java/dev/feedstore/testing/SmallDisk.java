package dev.feedstore.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A file system of its own, small enough to fill: a tmpfs of a given size mounted on a directory,
 * for tests of a full disk with real files and real {@code ENOSPC}. Ballast files take space and
 * give it back ({@link #reserve}, {@link #fill}, {@link #release}), the way an operator frees a
 * disk. Mounting needs root (or {@code CAP_SYS_ADMIN}) on Linux; where it is not permitted the test
 * is skipped with an assumption that says so. {@link #close} unmounts. Not thread-safe.
 */
public final class SmallDisk implements AutoCloseable {
  private static final int CHUNK = 64 * 1024;

  private final Path dir;
  private final List<Path> ballast = new ArrayList<>();
  private int ballastWritten;
  private boolean mounted = true;

  private SmallDisk(Path dir) {
    this.dir = dir;
  }

  /**
   * Mounts a tmpfs of {@code bytes} on {@code dir} (an empty directory), or skips the test when
   * this process may not mount file systems.
   */
  public static SmallDisk mount(Path dir, long bytes) {
    Mounts.Result result = Mounts.run("mount", "-t", "tmpfs", "-o", "size=" + bytes + ",mode=0755", "tmpfs",
        dir.toString());
    assumeTrue(result.ok(), () -> "a full disk is reproduced on a tmpfs of our own, and mounting one at " + dir
        + " is not permitted here (it needs root or CAP_SYS_ADMIN on Linux): " + result.output());
    return new SmallDisk(dir);
  }

  /** The directory the small file system is mounted on. */
  public Path dir() {
    return dir;
  }

  /** Bytes a new file could still take. */
  public long usableBytes() {
    try {
      return Files.getFileStore(dir).getUsableSpace();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes a ballast file of {@code bytes} (rounded up to 64 KiB), which {@link #release} deletes. */
  public void reserve(long bytes) {
    Path file = nextBallast();
    try (OutputStream out = Files.newOutputStream(file)) {
      byte[] chunk = new byte[CHUNK];
      for (long written = 0; written < bytes; written += CHUNK) {
        out.write(chunk);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("reserving " + bytes + " bytes on " + dir, e);
    }
  }

  /** Writes a ballast file that takes every byte left, so that the next write finds the disk full. */
  public void fill() {
    Path file = nextBallast();
    try (OutputStream out = Files.newOutputStream(file)) {
      byte[] chunk = new byte[CHUNK];
      byte[] page = new byte[4096];
      try {
        while (true) {
          out.write(chunk);
          out.flush();
        }
      } catch (IOException full) {
        // No room for another chunk; fill what is left page by page.
      }
      try {
        while (true) {
          out.write(page);
          out.flush();
        }
      } catch (IOException full) {
        // Full.
      }
    } catch (IOException e) {
      // Closing a file whose last write failed may fail too; the bytes written stay.
    }
  }

  /** Deletes the oldest ballast file still there, giving its space back, as an operator frees some. */
  public void releaseOldest() {
    if (ballast.isEmpty()) {
      throw new IllegalStateException("no ballast left on " + dir);
    }
    try {
      Files.deleteIfExists(ballast.remove(0));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Deletes every ballast file, giving their space back. */
  public void release() {
    try {
      for (Path file : ballast) {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ballast.clear();
  }

  /** Unmounts the file system (lazily if a file on it is still open); idempotent. */
  @Override
  public void close() {
    if (!mounted) {
      return;
    }
    mounted = false;
    Mounts.unmount(dir.toString());
  }

  private Path nextBallast() {
    Path file = dir.resolve("ballast-" + ballastWritten++);
    ballast.add(file);
    return file;
  }
}
