package dev.feedstore.client.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.testing.JavaProcess;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * A program as a user writes it from the documentation, compiled and run as a process of its own
 * with nothing but feed-client and its own dependencies on the class path (the build writes that
 * class path to {@code target/runtime-classpath.txt}). Stateless.
 */
public final class LibraryProgram {
  private LibraryProgram() {}

  /** The first java block after the heading {@code heading} (e.g. {@code "## Using the library"}) of {@code document}. */
  public static String snippet(String document, String heading) {
    int section = document.indexOf(heading);
    assertTrue(section >= 0, "the document has a '" + heading + "' section");
    Matcher block = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(document);
    assertTrue(block.find(section), "the section has a java block");
    return block.group(1);
  }

  /**
   * Compiles {@code source}, the class {@code className} (in no package), in {@code dir} and runs it
   * in {@code dir/app}; fails if it does not compile.
   */
  public static JavaProcess compileAndRun(Path dir, String className, String source) {
    try {
      String classPath = Path.of("target", "classes").toAbsolutePath() + File.pathSeparator
          + Files.readString(Path.of("target", "runtime-classpath.txt")).strip();
      assertTrue(!classPath.contains("feed-server") && !classPath.contains("test-classes"), classPath);
      Path file = Files.createDirectories(dir.resolve("src")).resolve(className + ".java");
      Files.writeString(file, source);
      Path classes = Files.createDirectories(dir.resolve("classes"));
      JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
      int compiled = javac.run(null, null, null, "-cp", classPath, "-d", classes.toString(), file.toString());
      assertEquals(0, compiled, "the program compiles:\n" + source);
      Path work = Files.createDirectories(dir.resolve("app"));
      return JavaProcess.run(work, classPath + File.pathSeparator + classes, List.of(), className);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
