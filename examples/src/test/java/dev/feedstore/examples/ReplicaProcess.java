package dev.feedstore.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.testing.JavaProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * {@code java -jar examples.jar append-and-sync} as a separate process: a replica with a file of its
 * own that appends while it syncs and, at the end, prints every block it holds ({@code block
 * POSITION FEED ACTOR SEQUENCE DATA}). Its output goes to a file that the test reads while it runs.
 * Not thread-safe.
 */
final class ReplicaProcess implements AutoCloseable {
  static final String SPACE = "e2e";

  private final Path dir;
  private final String actor;
  private final Path output;
  private Process process;

  ReplicaProcess(Path dir, String actor) {
    this.dir = dir;
    this.actor = actor;
    this.output = dir.resolve(actor + ".out");
  }

  void start(String server, int count, int expect) throws IOException {
    Path jar = Path.of(System.getProperty("examples.jar", "target/examples.jar"));
    assertTrue(Files.isRegularFile(jar), "examples.jar is built (run the reactor's verify): " + jar.toAbsolutePath());
    process = new ProcessBuilder(JavaProcess.launcher(), "-jar", jar.toAbsolutePath().toString(), "append-and-sync",
        "--server", server, "--db", dir.resolve(actor + ".db").toString(), "--actor", actor, "--space", SPACE,
        "--count", Integer.toString(count), "--interval-ms", "75", "--expect", Integer.toString(expect),
        "--timeout-s", "60")
        .redirectErrorStream(true).redirectOutput(output.toFile()).start();
  }

  List<String> lines() {
    return JavaProcess.outputIn(output).lines().toList();
  }

  /** How many blocks it has appended so far. */
  int appended() {
    return (int) lines().stream().filter(l -> l.startsWith("appended ")).count();
  }

  /** True when a line after the first {@code index} lines reports the OFFLINE status. */
  boolean wentOfflineAfter(int index) {
    List<String> lines = lines();
    return lines.subList(Math.min(index, lines.size()), lines.size()).stream().anyMatch(l -> l.startsWith("status OFFLINE"));
  }

  /** Waits for the process to exit with 0, and returns the data of every block it printed with its position. */
  Map<String, Long> awaitConvergedBlocks() throws InterruptedException {
    assertTrue(process.waitFor(90, TimeUnit.SECONDS), actor + " finished:\n" + JavaProcess.outputIn(output));
    assertEquals(0, process.exitValue(), actor + " converged:\n" + JavaProcess.outputIn(output));
    Map<String, Long> blocks = new TreeMap<>();
    for (String line : lines()) {
      if (line.startsWith("block ")) {
        String[] fields = line.split(" ", 6);
        Long before = blocks.put(fields[5], Long.parseLong(fields[1]));
        assertEquals(null, before, actor + " holds each block once: " + line);
      }
    }
    assertTrue(lines().contains("done"), JavaProcess.outputIn(output));
    return blocks;
  }

  @Override
  public void close() throws InterruptedException {
    if (process != null && process.isAlive()) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
