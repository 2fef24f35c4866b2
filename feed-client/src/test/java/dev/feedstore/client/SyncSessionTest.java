package dev.feedstore.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.Replicas;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SyncSessionTest {
  private static final SpaceId SPACE = SpaceId.of("team");
  private static final SyncSession.Options FAST_RETRY =
      SyncSession.Options.DEFAULTS.withBackoff(Duration.ofMillis(20), Duration.ofMillis(200));

  @TempDir Path dir;

  @Test
  void statusGoesOfflineWhenTheAuthorityStopsAndBackToSyncedAfterItRestarts() throws Exception {
    try (RestartableServer authority = RestartableServer.inProcess(dir); Replicas replicas = new Replicas(dir)) {
      Replica alice = replicas.open("alice");
      FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      alice.append(SPACE, feed, BlockData.utf8("one"));
      List<SyncStatus> seen = new CopyOnWriteArrayList<>();
      try (SyncSession session = alice.connect(authority.channel(), FAST_RETRY)) {
        session.onStatus(seen::add);
        assertTrue(session.awaitSynced(Duration.ofSeconds(30)), "synced: " + session.status());
        assertTrue(alice.read(SPACE, feed).get(0).isPositioned());

        authority.stop();
        Await.until("offline after the authority stopped",
            () -> session.status().state() == SyncStatus.State.OFFLINE);
        alice.append(SPACE, feed, BlockData.utf8("two, written offline"));
        Await.until("the offline status counts the block to push", () -> session.status().toPush() == 1);
        assertEquals(SyncStatus.State.OFFLINE, session.status().state());

        authority.start();
        assertTrue(session.awaitSynced(Duration.ofSeconds(30)), "synced again: " + session.status());
        assertTrue(alice.read(SPACE, feed).stream().allMatch(Block::isPositioned));
        assertEquals(2, authority.store().read(tx -> tx.blocks().feed(SPACE, feed)).size());
      }
      // Never synced while something was pending.
      for (SyncStatus status : seen) {
        if (status.isSynced()) {
          assertEquals(0, status.toPush(), "synced reported with nothing to push: " + seen);
        }
      }
    }
  }

  @Test
  void anAppendEndsTheSyncedStatusAtOnce() throws Exception {
    try (RestartableServer authority = RestartableServer.inProcess(dir); Replicas replicas = new Replicas(dir)) {
      Replica alice = replicas.open("alice");
      FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      try (SyncSession session = alice.connect(authority.channel(), FAST_RETRY)) {
        assertTrue(session.awaitSynced(Duration.ofSeconds(30)), "synced: " + session.status());
        for (int i = 0; i < 20; i++) {
          alice.append(SPACE, feed, BlockData.utf8("block " + i));
          assertEquals(SyncStatus.State.SYNCING, session.status().state(), "right after append " + i);
          assertTrue(session.awaitSynced(Duration.ofSeconds(30)), "synced again: " + session.status());
          assertTrue(alice.read(SPACE, feed).stream().allMatch(Block::isPositioned), "synced means positioned");
        }
      }
    }
  }

  @Test
  void oneSessionAtATime() {
    try (RestartableServer authority = RestartableServer.inProcess(dir); Replicas replicas = new Replicas(dir)) {
      Replica alice = replicas.open("alice");
      try (SyncSession first = alice.connect(authority.channel())) {
        assertThrows(IllegalStateException.class, () -> alice.connect(authority.channel()));
      }
      alice.connect(authority.channel()).close();
    }
  }
}
