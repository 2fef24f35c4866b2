package dev.feedstore.client;

import static dev.feedstore.client.testing.Convergence.assertConverged;
import static dev.feedstore.client.testing.Convergence.assertExactlyOnce;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.Replicas;
import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Predecessor;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.sync.SyncStep;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.testing.SyncDriver;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SequenceConflictTest {
  private static final SpaceId SPACE = SpaceId.of("team");

  @TempDir Path dir;

  @Test
  void replicaRestoredFromAnOldBackupKeepsBothContentsUnderDistinctKeys() {
    try (RestartableServer authority = RestartableServer.inProcess(dir); Replicas replicas = new Replicas(dir)) {
      SyncDriver<Replica> driver = Replicas.driver(authority.channel(), SPACE);
      Replica alice = replicas.open("alice");
      FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      replicas.append(alice, SPACE, feed, "before-backup", 2);
      driver.untilQuiet(10, alice);
      Path backup = replicas.backup(alice, "alice-old");
      alice = replicas.open("alice");
      replicas.append(alice, SPACE, feed, "after-backup", 2);
      driver.untilQuiet(10, alice);
      alice.close();

      // The laptop is restored from the old backup and writes again under sequences 2 and 3.
      alice = replicas.restore("alice", backup);
      replicas.append(alice, SPACE, feed, "rewritten", 3);
      driver.untilQuiet(10, alice);

      assertTrue(driver.saw(SyncStep.Kind.REKEYED, "other content"), driver.steps().toString());
      List<Block> blocks = alice.read(SPACE, feed);
      assertEquals(7, blocks.size());
      Set<String> keys = new HashSet<>();
      blocks.forEach(b -> assertTrue(keys.add(b.key().toString()), "distinct keys"));
      assertConverged(authority.store(), SPACE, List.of(feed), alice);
      assertExactlyOnce(authority.store(), SPACE, replicas.written());

      // The re-keyed blocks still point at each other in the order they were written.
      Map<String, Block> byData = blocks.stream().collect(Collectors.toMap(b -> b.data().toStringUtf8(), Function.identity()));
      assertEquals(Optional.of(Predecessor.of(byData.get("rewritten-0").key())), byData.get("rewritten-1").predecessor());
      assertEquals(Optional.of(Predecessor.of(byData.get("rewritten-1").key())), byData.get("rewritten-2").predecessor());
      assertTrue(byData.get("rewritten-0").sequence().value() > 3, "moved past the used sequences");
    }
  }

  @Test
  void aConflictInPushesSentTogetherRekeysTheBlockAndTheAbortedOnesFollowItWhenSentAgain() {
    try (RestartableServer authority = RestartableServer.inProcess(dir); Replicas replicas = new Replicas(dir)) {
      SyncDriver<Replica> driver = Replicas.driver(authority.channel(), SPACE);
      Replica alice = replicas.open("alice", 500, 1); // one block per push: each is its own Append
      FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      replicas.append(alice, SPACE, feed, "before-backup", 2);
      driver.untilQuiet(10, alice);
      Path backup = replicas.backup(alice, "alice-old");
      alice = replicas.open("alice", 500, 1);
      replicas.append(alice, SPACE, feed, "after-backup", 2);
      driver.untilQuiet(10, alice);
      alice.close();

      // Restored from the old backup, it writes sequences 2, 3 and 4: the first push is refused, the
      // next two were sent with it and are aborted.
      replicas.restore("alice", backup).close();
      alice = replicas.open("alice", 500, 1);
      replicas.append(alice, SPACE, feed, "rewritten", 3);
      driver.untilQuiet(10, alice);

      assertTrue(driver.saw(SyncStep.Kind.REKEYED, "other content"), driver.steps().toString());
      List<Block> blocks = alice.read(SPACE, feed);
      assertEquals(7, blocks.size());
      assertConverged(authority.store(), SPACE, List.of(feed), alice);
      assertExactlyOnce(authority.store(), SPACE, replicas.written());
      Map<String, Block> byData = blocks.stream().collect(Collectors.toMap(b -> b.data().toStringUtf8(), Function.identity()));
      assertEquals(Optional.of(Predecessor.of(byData.get("rewritten-0").key())), byData.get("rewritten-1").predecessor());
      assertEquals(Optional.of(Predecessor.of(byData.get("rewritten-1").key())), byData.get("rewritten-2").predecessor());
      assertTrue(byData.get("rewritten-0").sequence().value() > 3, "moved past the used sequences");
    }
  }
}
