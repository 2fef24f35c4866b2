package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The server is written against the authority's store interfaces only ({@code AuthorityStore},
 * {@code AuthorityTransaction} and their views), so that any authority store can serve it: no type
 * of the replica's store appears in its code.
 */
class AuthorityStoreSeamTest {
  private static final Pattern REPLICA_ONLY = Pattern.compile(
      "\\b(FeedStore|StoreTransaction|ReplicaBlockLog|ReplicaFeedCatalog|SyncStates?|ReplicationPolicies)\\b");

  @Test
  void theServersCodeNamesNoTypeOfTheReplicasStore() throws IOException {
    Path sources = Path.of("src/main/java");
    assertTrue(Files.isDirectory(sources), "run from the feed-server module: " + sources.toAbsolutePath());
    List<String> found = new ArrayList<>();
    int files = 0;
    try (Stream<Path> walk = Files.walk(sources)) {
      for (Path file : walk.filter(f -> f.toString().endsWith(".java")).toList()) {
        files++;
        List<String> lines = Files.readAllLines(file);
        for (int i = 0; i < lines.size(); i++) {
          Matcher matcher = REPLICA_ONLY.matcher(lines.get(i));
          if (matcher.find()) {
            found.add(sources.relativize(file) + ":" + (i + 1) + " names " + matcher.group(1));
          }
        }
      }
    }
    assertTrue(files > 20, "read " + files + " source files");
    assertEquals(List.of(), found, "the server must use the authority's store interfaces only");
  }
}
