package dev.feedstore.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Faults of the disk under a store, made in its files: bytes that change after they were written.
 * Stateless.
 */
public final class DiskFaults {
  private DiskFaults() {}

  /**
   * Flips one bit in the middle of every copy of {@code marker} in {@code file} (a closed store, so
   * the file holds everything: no {@code -wal} beside it) and returns how many it found. A store
   * can keep stale copies of a row in free pages, so every copy is changed, the live one among them.
   *
   * @throws AssertionError if the file does not hold the marker
   */
  public static int flipABitInside(Path file, String marker) {
    if (Files.exists(Path.of(file + "-wal"))) {
      throw new AssertionError(file + "-wal exists: close the store first, so the file holds every page");
    }
    byte[] needle = marker.getBytes(StandardCharsets.UTF_8);
    try {
      byte[] bytes = Files.readAllBytes(file);
      int found = 0;
      for (int i = 0; i + needle.length <= bytes.length; i++) {
        if (matches(bytes, i, needle)) {
          bytes[i + needle.length / 2] ^= 0x04;
          found++;
          i += needle.length - 1;
        }
      }
      if (found == 0) {
        throw new AssertionError("'" + marker + "' is not in " + file);
      }
      Files.write(file, bytes);
      return found;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean matches(byte[] bytes, int at, byte[] needle) {
    for (int j = 0; j < needle.length; j++) {
      if (bytes[at + j] != needle[j]) {
        return false;
      }
    }
    return true;
  }
}
