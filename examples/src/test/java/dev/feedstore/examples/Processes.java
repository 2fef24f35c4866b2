package dev.feedstore.examples;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Helpers for tests that run programs as processes. Stateless. */
final class Processes {
  private Processes() {}

  /** The java launcher of this JVM. */
  static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** The file's text, or a note that it has none yet. */
  static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }

  static List<String> lines(Path file) {
    String text = read(file);
    return text.isEmpty() ? List.of() : List.of(text.split("\n"));
  }
}
