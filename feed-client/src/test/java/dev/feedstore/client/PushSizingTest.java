package dev.feedstore.client;

import static dev.feedstore.server.settings.ServerSettings.BLOCKS_PER_APPEND;
import static dev.feedstore.server.settings.ServerSettings.BLOCK_BYTES;
import static dev.feedstore.server.settings.ServerSettings.MAX_MESSAGE_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.internal.GrpcAuthority;
import dev.feedstore.client.testing.Replicas;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.sync.SyncStep;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.testing.SyncDriver;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pushes fit the authority's limits: a backlog of large blocks written offline syncs against a
 * default server and against one with small limits, and a refusal naming a lower limit is learned
 * at once, never sending the same request again. Real server over loopback, counted on the server.
 */
class PushSizingTest {
  private static final SpaceId SPACE = SpaceId.of("attachments");

  @TempDir Path dir;

  @Test
  void threeHundredBlocksOf100KiBWrittenOfflineSyncAgainstADefaultServer() throws Exception {
    syncsOfflineBacklog(ServerSettings.DEFAULTS, 300, 100 * 1024);
  }

  @Test
  void aBacklogOver16MiBSyncs() throws Exception {
    syncsOfflineBacklog(ServerSettings.DEFAULTS, 100, 200_000);
  }

  @Test
  void fortyBlocksOf1MiBSyncAgainstAServerWith4MiBMessagesAndSevenBlocksPerAppend() throws Exception {
    syncsOfflineBacklog(
        ServerSettings.newBuilder().set(MAX_MESSAGE_BYTES, 4_194_304).set(BLOCKS_PER_APPEND, 7).build(), 40, 1 << 20);
  }

  @Test
  void anyMixOfBlockSizesUpToTheBlockLimitSyncs() throws Exception {
    ServerSettings small = ServerSettings.newBuilder().set(MAX_MESSAGE_BYTES, 300_000).set(BLOCK_BYTES, 200_000)
        .set(BLOCKS_PER_APPEND, 5).build();
    try (RestartableServer authority = RestartableServer.loopback(dir, builder -> builder.settings(small));
        Replicas replicas = new Replicas(dir)) {
      Replica replica = replicas.open("alice");
      FeedId feed = replica.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      int[] sizes = {0, 200_000, 1, 150_000, 150_000, 99_999, 200_000, 7, 0, 123_456};
      for (int round = 0; round < 4; round++) {
        for (int size : sizes) {
          replica.append(SPACE, feed, TestBlocks.bytes(size));
        }
      }
      try (SyncSession session = replica.connect(authority.address(), ConnectOptions.DEFAULTS)) {
        assertTrue(session.awaitSynced(Duration.ofSeconds(60)), "synced: " + session.status());
      }
      assertEquals(40, authority.blocks(SPACE).size(), "every block is on the server");
      assertEquals(replica.read(SPACE, feed), authority.blocks(SPACE));
    }
  }

  @Test
  void aRefusalNamingALowerLimitIsLearnedAndNoRequestIsSentTwice() throws Exception {
    ServerSettings small = ServerSettings.newBuilder().set(MAX_MESSAGE_BYTES, 1_100_000).set(BLOCK_BYTES, 300_000)
        .set(BLOCKS_PER_APPEND, 7).build();
    try (RestartableServer authority = RestartableServer.loopback(dir, builder -> builder.settings(small));
        Replicas replicas = new Replicas(dir)) {
      Replica replica = replicas.open("alice");
      FeedId feed = replica.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      for (int i = 0; i < 60; i++) {
        replica.append(SPACE, feed, TestBlocks.bytes(i % 3 == 0 ? 250_000 : 1_000));
      }
      ManagedChannel channel = Grpc.newChannelBuilder(authority.address(), InsecureChannelCredentials.create()).build();
      try {
        // An authority that was never asked for its limits: it starts from the defaults (16 MiB,
        // 1000 blocks) and learns from the refusals.
        GrpcAuthority stale = new GrpcAuthority(channel);
        SyncDriver<Replica> driver = Replicas.driver(stale, SPACE);
        List<SyncStep> pushes = new ArrayList<>();
        for (SyncStep step = driver.push(replica); step.kind() != SyncStep.Kind.IDLE; step = driver.push(replica)) {
          pushes.add(step);
          assertTrue(pushes.size() < 100, "pushes end: " + pushes);
        }
        List<SyncStep> refusals = pushes.stream().filter(s -> s.kind() == SyncStep.Kind.OVER_LIMIT).toList();
        assertEquals(2, refusals.size(), "one refusal per limit learned (bytes, then blocks): " + pushes);
        assertTrue(refusals.get(0).detail().contains("max-message-bytes 1100000"), refusals.toString());
        assertTrue(refusals.get(1).detail().contains("blocks-per-append 7"), refusals.toString());
        assertEquals(7, stale.limits().blocksPerAppend());
        assertTrue(stale.limits().maxMessageBytes() <= 1_100_000, stale.limits().toString());
      } finally {
        channel.shutdownNow();
      }
      assertEquals(60, authority.blocks(SPACE).size());
      assertTrue(replica.read(SPACE, feed).stream().allMatch(Block::isPositioned));
    }
  }

  /** Writes {@code count} blocks of {@code size} bytes offline, connects, and counts them on the server. */
  private void syncsOfflineBacklog(ServerSettings settings, int count, int size) throws Exception {
    try (RestartableServer authority = RestartableServer.loopback(dir, builder -> builder.settings(settings));
        Replicas replicas = new Replicas(dir)) {
      Replica replica = replicas.open("alice");
      FeedId feed = replica.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      List<BlockData> batch = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        batch.add(TestBlocks.bytes(size));
        if (batch.size() == 20 || i == count - 1) {
          replica.append(SPACE, feed, batch);
          batch.clear();
        }
      }
      try (SyncSession session = replica.connect(authority.address(), ConnectOptions.DEFAULTS)) {
        assertTrue(session.awaitSynced(Duration.ofSeconds(120)), "synced: " + session.status());
        assertEquals((long) settings.get(MAX_MESSAGE_BYTES),
            session.serverInfo().orElseThrow().maxMessageBytes());
      }
      List<Block> stored = authority.blocks(SPACE);
      assertEquals(count, stored.size(), "blocks on the server");
      assertTrue(stored.stream().allMatch(b -> b.data().size() == size));
      assertEquals(replica.read(SPACE, feed), stored);
    }
  }
}
