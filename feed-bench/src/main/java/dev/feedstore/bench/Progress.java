package dev.feedstore.bench;

import java.util.Locale;

/** Progress lines on stderr, so that stdout holds only the table. */
final class Progress {
  private static final long START = System.nanoTime();

  private Progress() {}

  static void say(String format, Object... args) {
    System.err.printf(Locale.ROOT, "[%6.1f s] %s%n", (System.nanoTime() - START) / 1e9,
        String.format(Locale.ROOT, format, args));
  }
}
