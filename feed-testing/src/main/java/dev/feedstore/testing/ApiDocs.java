package dev.feedstore.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;

/**
 * Javadoc's doclint over the exported packages of a module's main sources ({@code src/main/java}),
 * as a module's test runs it (feed-core's, which cannot use this module, from a test here): every
 * public and protected member must have a comment, and every comment must be well formed
 * (references that resolve, valid HTML, known tags). Leaving out {@code @param}, {@code @return}
 * and {@code @throws} is allowed where the sentence says it. Generated code and internal packages
 * are not read. Stateless and thread-safe.
 */
public final class ApiDocs {
  /** The doclint warnings a comment may leave: the sentence states what the tags would. */
  private static final List<String> ALLOWED = List.of("warning: no @param", "warning: no @return",
      "warning: no @throws");

  private ApiDocs() {
  }

  /**
   * Fails the test, listing every problem, unless each of {@code packages} has a {@code
   * package-info.java} and {@link #problems} finds nothing in them.
   */
  public static void assertDocumented(String... packages) {
    assertDocumented(Path.of("src/main/java"), packages);
  }

  /**
   * The same for the packages of another module's main sources, {@code sources} (for example {@code
   * ../feed-core/src/main/java}), whose classes this process's class path holds: a module below
   * this one cannot run this check in its own tests.
   */
  public static void assertDocumented(Path sources, String... packages) {
    List<String> problems = new ArrayList<>();
    for (String name : packages) {
      Path info = sources.resolve(name.replace('.', '/')).resolve("package-info.java");
      if (!Files.isRegularFile(info)) {
        problems.add(info + ": missing: every exported package says what it holds");
      }
    }
    problems.addAll(problems(sources, List.of(packages)));
    if (!problems.isEmpty()) {
      fail(problems.size() + " javadoc problems in the exported packages " + List.of(packages) + ":\n"
          + String.join("\n", problems));
    }
  }

  /**
   * The doclint problems of {@code packages} under {@code sources}, one line each (file, line, what),
   * against this process's class path.
   *
   * @throws IllegalStateException if this JDK has no javadoc tool
   */
  public static List<String> problems(Path sources, List<String> packages) {
    ToolProvider javadoc = ToolProvider.findFirst("javadoc")
        .orElseThrow(() -> new IllegalStateException("this JDK has no javadoc tool; run the tests on a JDK"));
    Path out;
    try {
      out = Files.createTempDirectory("api-docs");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // The packages' files, not the source tree: a module-info.java there would make javadoc read the
    // module on a module path, where the tests' class path is not; the module's other classes are read
    // compiled, from the class path.
    List<String> args = new ArrayList<>(List.of("-Xdoclint:all", "-protected", "-quiet", "-Xmaxwarns", "100000",
        "-Xmaxerrs", "100000", "-d", out.resolve("html").toString(), "-sourcepath", out.toString(),
        "-cp", System.getProperty("java.class.path")));
    for (String name : packages) {
      args.addAll(sourceFiles(sources.resolve(name.replace('.', '/'))));
    }
    StringWriter text = new StringWriter();
    try (PrintWriter writer = new PrintWriter(text)) {
      javadoc.run(writer, writer, args.toArray(String[]::new));
    } finally {
      deleteTree(out);
    }
    return text.toString().lines()
        .filter(line -> line.contains(": warning:") || line.contains(": error:") || line.startsWith("error:"))
        .filter(line -> ALLOWED.stream().noneMatch(line::contains))
        .toList();
  }

  /** The {@code .java} files of one package directory, its {@code package-info.java} among them. */
  private static List<String> sourceFiles(Path directory) {
    if (!Files.isDirectory(directory)) {
      throw new IllegalArgumentException("no sources of the package at " + directory.toAbsolutePath());
    }
    try (Stream<Path> files = Files.list(directory)) {
      return files.filter(file -> file.toString().endsWith(".java")).map(Path::toString).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
