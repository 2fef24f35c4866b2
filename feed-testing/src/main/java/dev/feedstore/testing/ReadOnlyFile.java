package dev.feedstore.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;

/**
 * Makes one file read-only for every process, root included, as a read-only mount would: a
 * read-only bind mount of the file over itself. Its directory stays writable. Needs root (or
 * {@code CAP_SYS_ADMIN}) on Linux; where that is not permitted the test is skipped with an
 * assumption that says so. {@link #close} makes the file writable again. Not thread-safe.
 */
public final class ReadOnlyFile implements AutoCloseable {
  private final Path file;
  private boolean mounted = true;

  private ReadOnlyFile(Path file) {
    this.file = file;
  }

  /** Makes {@code file}, which must exist, read-only until {@link #close}. */
  public static ReadOnlyFile of(Path file) {
    String target = file.toAbsolutePath().toString();
    Mounts.Result bind = Mounts.run("mount", "--bind", target, target);
    assumeTrue(bind.ok(), () -> "a read-only file is made with a read-only bind mount, and mounting is not"
        + " permitted here (it needs root or CAP_SYS_ADMIN on Linux): " + bind.output());
    Mounts.Result readOnly = Mounts.run("mount", "-o", "remount,bind,ro", target);
    if (!readOnly.ok()) {
      Mounts.unmount(target);
      assumeTrue(false, () -> "cannot make the bind mount of " + target + " read-only: " + readOnly.output());
    }
    return new ReadOnlyFile(file);
  }

  /** Makes the file writable again; idempotent. */
  @Override
  public void close() {
    if (mounted) {
      mounted = false;
      Mounts.unmount(file.toAbsolutePath().toString());
    }
  }
}
