package dev.feedstore.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Java program run as a process of its own (a second process on a replica's file, an application
 * with only the library on its class path or its module path), waited for, with its output; and what every test that
 * starts a JVM needs: this JVM's launcher and the output a process writes to a file. Not
 * thread-safe.
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
    List<String> command = new ArrayList<>(List.of(launcher(), "-cp", classPath));
    properties.forEach(property -> command.add("-D" + property));
    command.add(mainClass);
    command.addAll(List.of(args));
    return run(directory, command);
  }

  /**
   * Runs {@code mainClass} of the module {@code module} on {@code modulePath} (nothing on the class
   * path) in {@code directory} and waits (60 s at most).
   */
  public static JavaProcess runModule(Path directory, String modulePath, String module, String mainClass,
      String... args) {
    List<String> command = new ArrayList<>(List.of(launcher(), "--module-path", modulePath, "--module",
        module + "/" + mainClass));
    command.addAll(List.of(args));
    return run(directory, command);
  }

  private static JavaProcess run(Path directory, List<String> command) {
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

  /** The {@code java} launcher of the JVM the tests run in, for starting another one like it. */
  public static String launcher() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /**
   * What a process wrote so far to {@code file}, where its output goes; empty when it wrote nothing
   * yet (the file may not exist until it does).
   */
  public static String outputIn(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }
}
