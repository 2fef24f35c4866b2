package dev.feedstore.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How many CPUs the server's child JVM may use ({@code --server-cpus}): what a slow host looks like.
 * The child runs under {@code taskset -c 0-(N-1)}, so the kernel schedules it on the first N CPUs
 * only, and with {@code -XX:ActiveProcessorCount=N}, so that the JVM sizes its GC and compiler
 * threads (and the server its pools) for N. Immutable.
 *
 * @param cpus the CPUs the server may use, or 0 for no limit
 */
record CpuLimit(int cpus) {
  static final CpuLimit NONE = new CpuLimit(0);
  private static final Path TASKSET = Path.of("/usr/bin/taskset");

  CpuLimit {
    if (cpus < 0 || cpus > Runtime.getRuntime().availableProcessors()) {
      throw outOfRange(cpus);
    }
  }

  /** The limit of {@code --server-cpus}, checked against {@code inProcess}. */
  static CpuLimit of(Integer cpus, boolean inProcess) {
    if (cpus == null) {
      return NONE;
    }
    if (inProcess) {
      throw new IllegalArgumentException("--server-cpus limits the server's own JVM: it cannot be used with"
          + " --in-process");
    }
    if (cpus == 0) {
      throw outOfRange(cpus);
    }
    if (!Files.isExecutable(TASKSET)) {
      throw new IllegalArgumentException("--server-cpus needs " + TASKSET + " (util-linux), which this machine lacks");
    }
    return new CpuLimit(cpus);
  }

  /** What goes before the {@code java} command of the child: {@code taskset -c 0-(N-1)}, or nothing. */
  List<String> launcher() {
    return cpus == 0 ? List.of() : List.of(TASKSET.toString(), "-c", "0-" + (cpus - 1));
  }

  /** The child's JVM options with the processor count added when limited. */
  List<String> jvmArgs(List<String> args) {
    List<String> all = new ArrayList<>(args);
    if (cpus > 0) {
      all.add(0, "-XX:ActiveProcessorCount=" + cpus);
    }
    return all;
  }

  private static IllegalArgumentException outOfRange(int cpus) {
    return new IllegalArgumentException("--server-cpus must be between 1 and the "
        + Runtime.getRuntime().availableProcessors() + " processors of this machine, was " + cpus);
  }

  @Override
  public String toString() {
    return cpus == 0 ? "all CPUs" : cpus + " CPU" + (cpus == 1 ? "" : "s") + " (" + String.join(" ", launcher()) + ")";
  }
}
