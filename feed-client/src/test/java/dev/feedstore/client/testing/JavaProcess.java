package dev.feedstore.client.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Java program run as a process of its own (a second process on a replica's file, an application
 * with only the library on its class path), waited for, with its output. Not thread-safe.
 *
 * @param exitCode the process's exit code
 * @param output what it wrote to standard output and standard error, interleaved
 */
public record JavaProcess(int exitCode, String output) {

  /**
   * Runs {@code mainClass} with {@code classPath} in {@code directory} and waits (60 s at most).
   *
   * @param properties {@code -D} options, e.g. {@code org.slf4j.simpleLogger.defaultLogLevel=info}
   */
  public static JavaProcess run(Path directory, String classPath, List<String> properties, String mainClass,
      String... args) {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new ArrayList<>(List.of(java, "-cp", classPath));
    properties.forEach(property -> command.add("-D" + property));
    command.add(mainClass);
    command.addAll(List.of(args));
    try {
      Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
      byte[] output = process.getInputStream().readAllBytes();
      assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the process ended: " + command);
      return new JavaProcess(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The class path of this test run (tests, the library and every dependency). */
  public static String testClassPath() {
    return System.getProperty("java.class.path");
  }
}
