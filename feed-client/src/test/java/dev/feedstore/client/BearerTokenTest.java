package dev.feedstore.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.grpc.BearerToken;
import dev.feedstore.client.testing.Replicas;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.server.settings.AccessTokens;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.testing.Await;
import io.grpc.CompositeChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A replica syncing with an authority that requires access tokens, its token given to the channel. */
class BearerTokenTest {
  private static final SpaceId SPACE = SpaceId.of("team");

  @TempDir Path dir;

  @Test
  void aReplicaWhoseChannelCarriesAWriteTokenSyncsAndOneWithAReadTokenIsRefused() throws Exception {
    Path tokens = dir.resolve("tokens");
    Files.writeString(tokens, AccessTokens.sha256("alice-token") + " write team\n"
        + AccessTokens.sha256("bob-token") + " read team\n");
    try (RestartableServer server =
            RestartableServer.loopback(dir, builder -> builder.accessTokens(AccessTokens.read(tokens)));
        Replicas replicas = new Replicas(dir)) {
      ManagedChannel alicesChannel = channel(server, "alice-token");
      ManagedChannel bobsChannel = channel(server, "bob-token");
      try {
        Replica alice = replicas.open("alice");
        FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
        alice.append(SPACE, feed, BlockData.utf8("from alice"));
        try (SyncSession session = alice.connect(alicesChannel)) {
          assertTrue(session.awaitSynced(Duration.ofSeconds(30)), "alice: " + session.status());
        }
        assertEquals(1, server.store().read(tx -> tx.blocks().feed(SPACE, feed)).size());

        Replica bob = replicas.open("bob");
        FeedId bobs = bob.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
        bob.append(SPACE, bobs, BlockData.utf8("from bob, who may only read"));
        try (SyncSession session = bob.connect(bobsChannel)) {
          Await.until("bob's push is refused", () -> session.status().lastError()
              .filter(error -> error.contains("PERMISSION_DENIED")).isPresent());
          assertEquals(SyncStatus.State.REFUSED, session.status().state(), "refused, not offline: " + session.status());
          assertEquals(Refusal.Held.PUSHES, session.status().refusals().get(0).held());
        }
        assertEquals(0, server.store().read(tx -> tx.blocks().feed(SPACE, bobs)).size());
      } finally {
        alicesChannel.shutdownNow();
        bobsChannel.shutdownNow();
      }
    }
  }

  @Test
  void aTokenThatCannotTravelInAHeaderIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> BearerToken.of(""));
    assertThrows(IllegalArgumentException.class, () -> BearerToken.of("two words"));
    assertEquals("BearerToken[***]", BearerToken.of("secret").toString());
  }

  private static ManagedChannel channel(RestartableServer server, String token) {
    return Grpc.newChannelBuilderForAddress("127.0.0.1", server.port(),
        CompositeChannelCredentials.create(InsecureChannelCredentials.create(), BearerToken.of(token))).build();
  }
}
