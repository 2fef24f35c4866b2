package dev.feedstore.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No two top-level classes of the modules' main code share a simple name, so that a name found in
 * a stack trace, a log line or a search leads to one class. Reads the hand-written sources of every
 * module beside this one ({@code MODULE/src/main/java}); generated code is not read.
 */
class MainClassNamesTest {

  @Test
  void everyMainClassHasANameOfItsOwn() {
    Path repository = Path.of("").toAbsolutePath().getParent();
    assertTrue(Files.isRegularFile(repository.resolve("pom.xml")) && Files.isDirectory(repository.resolve("feed-core")),
        "the tests run in a module's directory of the repository, was " + Path.of("").toAbsolutePath());

    Map<String, List<Path>> shared = sharedNames(repository);

    assertEquals(Map.of(), shared, "simple names used by more than one main class; rename the less public one");
  }

  @Test
  void aNameUsedInTwoModulesIsFound(@TempDir Path repository) throws IOException {
    write(repository, "feed-one/src/main/java/a/Refusal.java");
    write(repository, "feed-two/src/main/java/b/Refusal.java");
    write(repository, "feed-two/src/main/java/b/package-info.java");
    write(repository, "feed-one/src/main/java/a/package-info.java");
    write(repository, "feed-one/src/test/java/a/Refusal.java");
    write(repository, "feed-two/src/main/java/b/Held.java");

    Map<String, List<Path>> shared = sharedNames(repository);

    assertEquals(Map.of("Refusal", List.of(Path.of("feed-one/src/main/java/a/Refusal.java"),
        Path.of("feed-two/src/main/java/b/Refusal.java"))), shared);
  }

  /** The simple names of more than one main class, each with its files relative to {@code repository}. */
  private static Map<String, List<Path>> sharedNames(Path repository) {
    Map<String, TreeSet<Path>> byName = new TreeMap<>();
    try (Stream<Path> modules = Files.list(repository)) {
      for (Path main : modules.map(module -> module.resolve("src/main/java")).filter(Files::isDirectory).toList()) {
        try (Stream<Path> files = Files.walk(main)) {
          files.filter(file -> file.toString().endsWith(".java"))
              .filter(file -> !file.endsWith("package-info.java") && !file.endsWith("module-info.java"))
              .forEach(file -> byName.computeIfAbsent(simpleName(file), name -> new TreeSet<>())
                  .add(repository.relativize(file)));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, List<Path>> shared = new TreeMap<>();
    byName.forEach((name, files) -> {
      if (files.size() > 1) {
        shared.put(name, List.copyOf(files));
      }
    });
    return shared;
  }

  private static String simpleName(Path file) {
    String name = file.getFileName().toString();
    return name.substring(0, name.length() - ".java".length());
  }

  private static void write(Path repository, String file) throws IOException {
    Path path = repository.resolve(file);
    Files.createDirectories(path.getParent());
    Files.writeString(path, "");
  }
}
