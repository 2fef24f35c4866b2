package dev.feedstore.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ApiDocs finds an undocumented public member and a broken reference, and lets a documented package pass. */
class ApiDocsTest {
  @Test
  void anUndocumentedMemberAndABrokenLinkAreProblems(@TempDir Path sources) throws IOException {
    write(sources, "a/Feed.java", """
        package a;

        /** A feed. */
        public final class Feed {
          public int size() {
            return 0;
          }

          /** The first block, see {@link Missing}. */
          public int first() {
            return 0;
          }

          int hidden() {
            return 0;
          }
        }
        """);

    List<String> problems = ApiDocs.problems(sources, List.of("a"));

    assertEquals(2, problems.size(), String.join("\n", problems));
    assertTrue(problems.stream().anyMatch(line -> line.contains("Feed.java:5") && line.contains("no comment")),
        String.join("\n", problems));
    assertTrue(problems.stream().anyMatch(line -> line.contains("Feed.java:9") && line.contains("reference not found")),
        String.join("\n", problems));
  }

  @Test
  void aDocumentedPackagePasses(@TempDir Path sources) throws IOException {
    write(sources, "a/Feed.java", """
        package a;

        /** A feed. */
        public final class Feed {
          /** How many blocks it holds (no tags needed where the sentence says it). */
          public int size(int limit) {
            return 0;
          }
        }
        """);

    assertEquals(List.of(), ApiDocs.problems(sources, List.of("a")));
  }

  private static void write(Path sources, String file, String text) throws IOException {
    Path path = sources.resolve(file);
    Files.createDirectories(path.getParent());
    Files.writeString(path, text);
  }
}
