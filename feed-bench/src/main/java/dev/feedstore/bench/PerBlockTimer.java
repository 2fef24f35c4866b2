package dev.feedstore.bench;

import java.util.function.LongSupplier;

/**
 * Times a computation done once per block, in this JVM: the nanoseconds per call over many calls.
 * Every result is added to a sink, which callers print, so that the compiler cannot drop the work.
 * Not thread-safe.
 */
final class PerBlockTimer {
  private long sink;

  /** Runs {@code work} {@code blocks} times; returns nanoseconds per call. */
  double nanosPerBlock(LongSupplier work, int blocks) {
    long start = System.nanoTime();
    for (int i = 0; i < blocks; i++) {
      sink += work.getAsLong();
    }
    return (System.nanoTime() - start) / (double) blocks;
  }

  /** One bit of what the results add up to, for a progress line. */
  long sinkBit() {
    return sink & 1;
  }
}
