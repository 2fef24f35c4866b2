package dev.feedstore.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.LibraryProgram;
import dev.feedstore.core.SpaceId;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.testing.JavaProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's "Using the library" snippet, as written there, compiles and runs with nothing but
 * feed-client and its own dependencies on the class path (the build writes that class path to
 * {@code target/runtime-classpath.txt}), against a real server: what a new user copies works.
 */
class ReadmeSnippetTest {
  /** Where the snippet connects; the test's server listens elsewhere, so only this string is replaced. */
  private static final String README_TARGET = "\"127.0.0.1:7070\"";

  @TempDir Path dir;

  @Test
  void theReadmesLibrarySnippetCompilesAndSyncsWithOnlyFeedClientOnTheClassPath() throws Exception {
    String snippet = LibraryProgram.snippet(Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8),
        "## Using the library");
    assertTrue(snippet.contains(README_TARGET), snippet);

    try (RestartableServer authority = RestartableServer.loopback(Files.createDirectories(dir.resolve("server")))) {
      long started = System.nanoTime();
      JavaProcess run = LibraryProgram.compileAndRun(dir, "ReadmeSnippet",
          program(snippet.replace(README_TARGET, "\"" + authority.address() + "\"")));
      System.out.printf("README snippet: compiled and ran in %d ms%n", (System.nanoTime() - started) / 1_000_000);
      assertEquals(0, run.exitCode(), run.output());
      assertTrue(run.output().contains("status synced"), run.output());
      assertTrue(run.output().contains("rows [Row[\"n1\""), "the live query's rows were rendered: " + run.output());
      assertEquals(List.of("{\"id\": \"n1\", \"text\": \"works offline\"}"), authority.blocks(SpaceId.of("team"))
          .stream().map(b -> b.data().toStringUtf8()).toList());
      assertTrue(Files.exists(dir.resolve("app").resolve("alice.db")), "the replica's file is where the snippet says");
    }
  }

  /** The snippet as the body of a program, with the imports it needs and the two methods it calls to show things. */
  private static String program(String snippet) {
    return """
        import dev.feedstore.client.*;
        import dev.feedstore.core.*;
        import dev.feedstore.core.query.LiveQuery;
        import dev.feedstore.core.query.result.ResultCopy;
        import java.nio.file.Path;
        import java.time.Duration;
        import java.util.Optional;

        public class ReadmeSnippet {
          public static void main(String[] args) throws Exception {
        %s
          }

          static void render(Object rows) {
            System.out.println("rows " + rows);
          }

          static void show(SyncStatus status) {
            System.out.println("status " + status);
          }
        }
        """.formatted(snippet);
  }
}
