package dev.feedstore.server.testing;

import java.lang.management.ManagementFactory;

/** Measures the JVM's heap for tests that show memory is bounded. */
public final class Heap {
  private Heap() {}

  /** Used heap in bytes after asking for a few full collections. */
  public static long usedAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  public static double mib(long bytes) {
    return bytes / 1048576.0;
  }
}
