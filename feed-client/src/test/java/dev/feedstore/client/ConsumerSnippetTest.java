package dev.feedstore.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.LibraryProgram;
import dev.feedstore.client.testing.OtherClient;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.testing.JavaProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The durable consumer example of docs/consumers.md, as written there, compiles and consumes with
 * nothing but feed-client and its dependencies on the class path, against a real server: a service
 * runs a durable consumer in a few lines.
 */
class ConsumerSnippetTest {
  private static final String DOCUMENTED_TARGET = "\"127.0.0.1:7070\"";

  @TempDir Path dir;

  @Test
  void theDocumentedConsumerCompilesAndConsumesWithOnlyFeedClientOnTheClassPath() throws Exception {
    String snippet = LibraryProgram.snippet(
        Files.readString(Path.of("..", "docs", "consumers.md"), StandardCharsets.UTF_8), "# Durable consumers");
    assertTrue(snippet.contains(DOCUMENTED_TARGET), snippet);
    try (RestartableServer authority = RestartableServer.loopback(Files.createDirectories(dir.resolve("server")))) {
      var channel = authority.newChannel();
      try {
        new OtherClient(channel, SpaceId.of("shop")).append(TestBlocks.feedId(), Namespace.of("orders"), 3);
      } finally {
        channel.shutdownNow();
      }

      JavaProcess run = LibraryProgram.compileAndRun(dir, "ConsumerSnippet",
          program(snippet.replace(DOCUMENTED_TARGET, "\"" + authority.address() + "\"")));

      assertEquals(0, run.exitCode(), run.output());
      assertTrue(run.output().contains("indexed 1, 2, 3"), run.output());
    }
  }

  /** The snippet as the body of a program whose {@code index} ends it once it has seen three blocks. */
  private static String program(String snippet) {
    return """
        import dev.feedstore.client.*;
        import dev.feedstore.core.*;
        import java.util.ArrayList;
        import java.util.List;

        public class ConsumerSnippet {
          static final List<Long> indexed = new ArrayList<>();

          public static void main(String[] args) throws Exception {
        %s
          }

          static void index(List<Block> blocks) {
            blocks.forEach(block -> indexed.add(block.position().value()));
            if (indexed.size() >= 3) {
              System.out.println("indexed " + indexed.toString().replaceAll("[\\\\[\\\\]]", ""));
              System.exit(0);
            }
          }
        }
        """.formatted(snippet);
  }
}
