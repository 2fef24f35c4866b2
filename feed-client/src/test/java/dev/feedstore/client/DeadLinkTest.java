package dev.feedstore.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.Replicas;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.testing.Await;
import dev.feedstore.testing.TcpRelay;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica whose server goes silent (every byte dropped both ways, nothing closed: a laptop that
 * changed networks, a NAT that dropped its state) notices within 30 s with the default options,
 * reports offline, and syncs again once bytes pass again.
 */
class DeadLinkTest {
  private static final SpaceId SPACE = SpaceId.of("team");

  @TempDir Path dir;

  @Test
  void aSilentLinkIsReportedOfflineWithin30sAndSyncsAgainWhenBytesPassAgain() throws Exception {
    try (RestartableServer authority = RestartableServer.loopback(dir);
        TcpRelay relay = new TcpRelay(authority.port());
        Replicas replicas = new Replicas(dir)) {
      Replica alice = replicas.open("alice");
      FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      alice.append(SPACE, feed, BlockData.utf8("before"));
      try (SyncSession session = alice.connect("127.0.0.1:" + relay.port(), ConnectOptions.DEFAULTS)) {
        assertTrue(session.awaitSynced(Duration.ofSeconds(20)), session.status().toString());

        relay.freeze();
        long frozen = System.nanoTime();
        Await.until("offline within 30 s", Duration.ofSeconds(30),
            () -> session.status().state() == SyncStatus.State.OFFLINE);
        System.out.printf("dead link: offline %d ms after the link went silent (%s)%n",
            (System.nanoTime() - frozen) / 1_000_000, session.status().lastError().orElse(""));
        alice.append(SPACE, feed, BlockData.utf8("while the link was dead"));

        relay.thaw();
        long thawed = System.nanoTime();
        assertTrue(session.awaitSynced(Duration.ofSeconds(60)), "synced again: " + session.status());
        System.out.printf("dead link: synced %d ms after bytes passed again%n", (System.nanoTime() - thawed) / 1_000_000);
      }
      assertEquals(2, authority.blocks(SPACE).size());
    }
  }
}
