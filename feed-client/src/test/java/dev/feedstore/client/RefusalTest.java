package dev.feedstore.client;

import static dev.feedstore.server.settings.ServerSettings.BLOCK_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.Replicas;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.settings.AccessTokens;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Refusals are states, not outages: the status says what the authority refused and what it holds
 * back, everything else keeps syncing, and a grant added later or a token replaced is picked up
 * without restarting the replica. Real server over loopback.
 */
class RefusalTest {
  private static final SpaceId SPACE = SpaceId.of("team");

  @TempDir Path dir;

  @Test
  void aReadOnlyTokenIsRefusedNotOfflineAndSyncsWhenTheServerRestartsWithAWriteGrant() throws Exception {
    Path tokens = dir.resolve("tokens");
    Files.writeString(tokens, AccessTokens.sha256("alice-token") + " read team\n");
    try (RestartableServer authority =
            RestartableServer.loopback(dir, builder -> builder.accessTokens(AccessTokens.read(tokens)));
        Replicas replicas = new Replicas(dir)) {
      Replica alice = replicas.open("alice");
      FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      alice.append(SPACE, feed, BlockData.utf8("written with a read-only token"));
      // The default refusal retry (minutes): only the restart can make the replica try again soon.
      ConnectOptions options = ConnectOptions.newBuilder().token("alice-token").build();
      try (SyncSession session = alice.connect(authority.address(), options)) {
        long started = System.nanoTime();
        Await.until("refused within 2 s", Duration.ofSeconds(2),
            () -> session.status().state() == SyncStatus.State.REFUSED);
        System.out.printf("refusal: reported %d ms after connect: %s%n", (System.nanoTime() - started) / 1_000_000,
            session.status());
        Refusal refusal = session.status().refusals().get(0);
        assertEquals(Refusal.Code.PERMISSION_DENIED, refusal.code());
        assertEquals(Optional.of(SPACE), refusal.space());
        assertEquals(Refusal.Held.PUSHES, refusal.held());
        assertTrue(refusal.description().contains("may read space 'team' but not Append"), refusal.description());
        assertEquals(1, session.status().toPush());

        Files.writeString(tokens, AccessTokens.sha256("alice-token") + " write team\n");
        authority.restart();
        assertTrue(session.awaitSynced(Duration.ofSeconds(30)), "synced after the grant: " + session.status());
      }
      assertEquals(1, authority.blocks(SPACE).size());
    }
  }

  @Test
  void aTokenTheSupplierReplacesIsUsedAtOnceAndWhatTheOldOneWasRefusedIsTriedAgain() throws Exception {
    Path tokens = dir.resolve("tokens");
    Files.writeString(tokens, AccessTokens.sha256("old") + " read team\n" + AccessTokens.sha256("new") + " write team\n");
    try (RestartableServer authority =
            RestartableServer.loopback(dir, builder -> builder.accessTokens(AccessTokens.read(tokens)));
        Replicas replicas = new Replicas(dir)) {
      Replica alice = replicas.open("alice");
      FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      alice.append(SPACE, feed, BlockData.utf8("one"));
      AtomicReference<String> token = new AtomicReference<>("old");
      try (SyncSession session = alice.connect(authority.address(),
          ConnectOptions.newBuilder().token(token::get).build())) {
        Await.until("refused", () -> session.status().state() == SyncStatus.State.REFUSED);
        token.set("new");
        assertTrue(session.awaitSynced(Duration.ofSeconds(20)), "synced with the new token: " + session.status());
      }
      assertEquals(1, authority.blocks(SPACE).size());
    }
  }

  @Test
  void anUnknownTokenHoldsBackTheWholeSession() throws Exception {
    Path tokens = dir.resolve("tokens");
    Files.writeString(tokens, AccessTokens.sha256("known") + " write team\n");
    try (RestartableServer authority =
            RestartableServer.loopback(dir, builder -> builder.accessTokens(AccessTokens.read(tokens)));
        Replicas replicas = new Replicas(dir)) {
      Replica alice = replicas.open("alice");
      alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      try (SyncSession session = alice.connect(authority.address(), ConnectOptions.newBuilder().token("unknown").build())) {
        Await.until("refused", () -> session.status().state() == SyncStatus.State.REFUSED);
        Refusal refusal = session.status().refusals().get(0);
        assertEquals(Refusal.Code.UNAUTHENTICATED, refusal.code());
        assertEquals(Refusal.Held.EVERYTHING, refusal.held());
        assertEquals(Optional.empty(), refusal.space());
        assertTrue(session.status().toString().startsWith("refused"), session.status().toString());
      }
    }
  }

  @Test
  void aBlockOverTheServersBlockBytesIsListedAsRefusedAndTheFiftyAfterItSync() throws Exception {
    ServerSettings settings = ServerSettings.newBuilder().set(BLOCK_BYTES, 64 * 1024).build();
    try (RestartableServer authority = RestartableServer.loopback(dir, builder -> builder.settings(settings));
        Replicas replicas = new Replicas(dir)) {
      Replica alice = replicas.open("alice");
      FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      alice.append(SPACE, feed, BlockData.utf8("before"));
      BlockKey large = alice.append(SPACE, feed, TestBlocks.bytes(100 * 1024));
      List<String> after = replicas.append(alice, SPACE, feed, "after", 50);
      try (SyncSession session = alice.connect(authority.address(), ConnectOptions.DEFAULTS)) {
        Await.until("the 51 others are on the server", Duration.ofSeconds(20),
            () -> authority.blocks(SPACE).size() == 51);
        Await.until("the status says a block is held back",
            () -> session.status().state() == SyncStatus.State.REFUSED);
        Refusal refusal = session.status().refusals().get(0);
        assertEquals(Refusal.Held.BLOCKS, refusal.held());
        assertTrue(refusal.description().contains("block-bytes 65536"), refusal.description());
        assertEquals(1, session.status().toPush(), session.status().toString());
      }
      List<RefusedBlock> refused = alice.refused(SPACE);
      assertEquals(1, refused.size(), refused.toString());
      assertEquals(large, refused.get(0).key());
      assertEquals(100 * 1024, refused.get(0).dataBytes());
      assertTrue(refused.get(0).reason().contains("block-bytes 65536"), refused.get(0).reason());
      List<String> synced = authority.blocks(SPACE).stream().map(b -> b.data().toStringUtf8()).toList();
      assertEquals("before", synced.get(0));
      assertEquals(after, synced.subList(1, 51));
    }
  }

  @Test
  void whileAPushIsRefusedPullsGoOn() throws Exception {
    ServerSettings settings = ServerSettings.newBuilder().set(BLOCK_BYTES, 64 * 1024).build();
    try (RestartableServer authority = RestartableServer.loopback(dir, builder -> builder.settings(settings));
        Replicas replicas = new Replicas(dir)) {
      Replica alice = replicas.open("alice");
      Replica bob = replicas.open("bob");
      FeedId alices = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      alice.append(SPACE, alices, TestBlocks.bytes(100 * 1024));
      FeedId bobs = bob.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      alice.replicate(SPACE, bobs, Replication.fullHistory());
      try (SyncSession aliceSync = alice.connect(authority.address(), ConnectOptions.DEFAULTS);
          SyncSession bobSync = bob.connect(authority.address(), ConnectOptions.DEFAULTS)) {
        Await.until("alice is stuck on her refused block",
            () -> aliceSync.status().state() == SyncStatus.State.REFUSED);
        List<String> written = replicas.append(bob, SPACE, bobs, "from bob", 20);
        Await.until("alice receives what bob appends", Duration.ofSeconds(20),
            () -> alice.read(SPACE, bobs).size() == 20);
        assertEquals(written, alice.read(SPACE, bobs).stream().map(b -> b.data().toStringUtf8()).toList());
        assertTrue(alice.read(SPACE, bobs).stream().allMatch(Block::isPositioned));
        assertEquals(SyncStatus.State.REFUSED, aliceSync.status().state(), aliceSync.status().toString());
      }
    }
  }
}
