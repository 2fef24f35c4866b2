package dev.feedstore.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The CPU time this JVM's JIT compiler threads ({@code C1 CompilerThread*}, {@code C2
 * CompilerThread*}) have used, read from {@code /proc/self/task}: the share of a process's CPU that
 * goes to compiling code rather than running it, which a server still warming up on a loaded host
 * spends for minutes. Linux only; elsewhere it reads 0. Stateless and thread-safe.
 */
final class CompilerCpu {
  /** The kernel's clock ticks per second for utime and stime ({@code USER_HZ}), 100 on Linux. */
  private static final long TICK_NANOS = 10_000_000L;

  private CompilerCpu() {}

  /** Nanoseconds of CPU the compiler threads used (user and system), or 0 without {@code /proc}. */
  static long nanos() {
    Path tasks = Path.of("/proc/self/task");
    if (!Files.isDirectory(tasks)) {
      return 0;
    }
    long ticks = 0;
    try (Stream<Path> threads = Files.list(tasks)) {
      for (Path thread : (Iterable<Path>) threads::iterator) {
        ticks += compilerTicks(thread.resolve("stat"));
      }
    } catch (IOException e) {
      return 0;
    }
    return ticks * TICK_NANOS;
  }

  /** utime + stime of one thread if it is a compiler thread, else 0; 0 when the thread has ended. */
  private static long compilerTicks(Path stat) {
    String line;
    try {
      line = Files.readString(stat);
    } catch (IOException e) {
      return 0;
    }
    int open = line.indexOf('(');
    int close = line.lastIndexOf(')');
    if (open < 0 || close < open) {
      return 0;
    }
    String name = line.substring(open + 1, close);
    if (!name.startsWith("C1 Compiler") && !name.startsWith("C2 Compiler")) {
      return 0;
    }
    // After the name: state (field 3) ... utime (14), stime (15).
    String[] fields = line.substring(close + 2).split(" ");
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }
}
