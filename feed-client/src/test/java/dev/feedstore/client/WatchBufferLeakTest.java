package dev.feedstore.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.ActorId;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.ListFeedsRequest;
import dev.feedstore.server.testing.GatedFeedStore;
import dev.feedstore.server.testing.NettyLeaks;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.testing.Await;
import dev.feedstore.testing.TcpRelay;
import io.grpc.ConnectivityState;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session that closes its live stream after the connection under it was cut, while Watch events it
 * had not asked for yet wait in gRPC's buffers, gives those buffers back. gRPC keeps the messages of
 * a call whose connection is gone until they are read, and a cancel, which travels through that
 * connection, never reaches them; unread, they would leave pooled direct memory of the transport to
 * the garbage collector. A real server and a real replica over a TCP relay on loopback, Netty's
 * leak detection at {@code paranoid} ({@link NettyLeaks}); the session is held inside a write of its
 * replica ({@link GatedFeedStore}) while the events arrive, so that it asks for no more of them.
 */
class WatchBufferLeakTest {
  private static final SpaceId SPACE = SpaceId.of("team");
  private static final int APPENDS = 20;
  private static final String DATA = "x".repeat(1024);

  @TempDir Path dir;

  @Test
  void closingAStreamWhoseConnectionWasCutReleasesTheEventsItHadNotRead() throws Exception {
    try (NettyLeaks leaks = NettyLeaks.paranoid()) {
      leaks.collect(); // buffers that earlier tests of this JVM dropped are theirs
      closeTheStreamOfASessionWhoseConnectionWasCut();

      assertEquals(List.of(), leaks.collect(), "buffers collected unreleased, with where each was created and used");
    }
  }

  /**
   * Everything the session, the replica and the channel held is out of reach once this returns (its
   * frame is gone), so that a buffer they dropped unreleased is garbage for {@link NettyLeaks#collect}.
   */
  private void closeTheStreamOfASessionWhoseConnectionWasCut() throws Exception {
    AtomicReference<GatedFeedStore> gate = new AtomicReference<>();
    ManagedChannel channel = null;
    try (RestartableServer server = RestartableServer.loopback(dir); TcpRelay relay = new TcpRelay(server.port());
         Replica replica = Replica.builder(dir.resolve("replica.db")).actorId(ActorId.of("reader"))
             .wrapStore(store -> {
               gate.set(new GatedFeedStore(store));
               return gate.get();
             }).build()) {
      channel = Grpc.newChannelBuilderForAddress("127.0.0.1", relay.port(), InsecureChannelCredentials.create())
          .build();
      FeedId feed = replica.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      SyncSession session = replica.connect(channel, SyncSession.Options.DEFAULTS);
      assertTrue(session.awaitSynced(Duration.ofSeconds(30)), session.status().toString());

      // The session applies the first event inside a write the test holds; the others wait in gRPC.
      gate.get().holdNextWrite();
      long before = relay.relayedToClients();
      ManagedChannel direct = server.newChannel();
      try {
        FeedSyncGrpc.FeedSyncBlockingStub writer = FeedSyncGrpc.newBlockingStub(direct);
        for (int i = 0; i < APPENDS; i++) {
          writer.append(Wire.append(SPACE.value(), Wire.block(feed, "writer", i, DATA)));
          // Each block its own event: the next is appended once this one went out.
          long sent = (long) (i + 1) * DATA.length();
          Await.until("event " + i + " went out to the replica", Duration.ofSeconds(60),
              () -> relay.relayedToClients() - before >= sent);
        }
      } finally {
        direct.shutdownNow().awaitTermination(30, TimeUnit.SECONDS);
      }
      gate.get().awaitHeld();
      // An answer on the same connection comes after those bytes: once it is read, they are read too.
      FeedSyncGrpc.newBlockingStub(channel).listFeeds(ListFeedsRequest.newBuilder().setSpaceId(SPACE.value()).build());
      relay.cutAll();
      ManagedChannel cut = channel;
      Await.until("the replica's connection is gone", Duration.ofSeconds(30),
          () -> cut.getState(false) != ConnectivityState.READY);

      // The session is closed while the held write still keeps it from reading on.
      Thread closing = new Thread(session::close, "closing-session");
      closing.start();
      Await.until("the session was told to stop and waits for its loop", Duration.ofSeconds(30),
          () -> closing.getState() == Thread.State.TIMED_WAITING);
      gate.get().open();
      closing.join(TimeUnit.SECONDS.toMillis(30));
      assertFalse(closing.isAlive(), "the session closed");
      int applied = replica.read(SPACE, feed).size();
      assertTrue(applied < APPENDS, "events were still unread when the stream was closed, applied " + applied);
    } finally {
      if (channel != null) {
        channel.shutdownNow().awaitTermination(30, TimeUnit.SECONDS);
      }
    }
  }
}
