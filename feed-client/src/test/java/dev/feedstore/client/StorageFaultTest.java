package dev.feedstore.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.Replicas;
import dev.feedstore.core.ActorId;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.server.FeedServer;
import dev.feedstore.sqlite.SqliteFeedStore;
import dev.feedstore.sqlite.SqliteSettings;
import dev.feedstore.testing.Await;
import dev.feedstore.testing.CapturedErr;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A failure of the replica's own file is a state of its own, not an outage of the authority: the
 * status says storage fault with the file and the cause, the log says it once however often sync
 * retries, and sync goes on by itself once the file works again. The fault here is another program
 * holding the file's write lock (SQLite reports it busy), which a test can start and end at will.
 */
class StorageFaultTest {
  private static final SpaceId SPACE = SpaceId.of("team");
  private static final SyncSession.Options FAST_RETRY =
      SyncSession.Options.DEFAULTS.withBackoff(Duration.ofMillis(20), Duration.ofMillis(100));

  @TempDir Path dir;

  @Test
  void aStorageFaultIsReportedAsSuchLoggedOnceAndOverWhenTheFileWorksAgain() throws Exception {
    AtomicInteger queries = new AtomicInteger();
    ServerInterceptor countQueries = new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
          ServerCallHandler<Q, R> next) {
        if (call.getMethodDescriptor().getBareMethodName().equals("Query")) {
          queries.incrementAndGet();
        }
        return next.startCall(call, headers);
      }
    };
    String name = InProcessServerBuilder.generateName();
    try (SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("authority.db"));
        FeedServer server = FeedServer.newBuilder(store)
            .serverBuilder(InProcessServerBuilder.forName(name).intercept(countQueries)).build().start();
        Replicas replicas = new Replicas(dir)) {
      ManagedChannel channel = InProcessChannelBuilder.forName(name).build();
      Path file = dir.resolve("alice.db");
      Replica alice = Replica.builder(file).actorId(ActorId.of("alice"))
          .sqlite(SqliteSettings.DEFAULTS.withBusyTimeout(Duration.ofMillis(50))).build();
      Replica bob = replicas.open("bob");
      FeedId feed = bob.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      alice.replicate(SPACE, feed, Replication.fullHistory());
      List<SyncStatus> seen = new CopyOnWriteArrayList<>();
      try (SyncSession bobSync = bob.connect(channel, FAST_RETRY);
          SyncSession aliceSync = alice.connect(channel, FAST_RETRY);
          CapturedErr log = new CapturedErr()) {
        aliceSync.onStatus(seen::add);
        assertTrue(aliceSync.awaitSynced(Duration.ofSeconds(20)), aliceSync.status().toString());

        try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + file);
            Statement statement = other.createStatement()) {
          statement.execute("BEGIN IMMEDIATE"); // another program holds the write lock
          bob.append(SPACE, feed, BlockData.utf8("pulled while alice's file is locked"));
          Await.until("a storage fault", () -> aliceSync.status().state() == SyncStatus.State.STORAGE_FAULT);
          SyncStatus fault = aliceSync.status();
          assertTrue(fault.lastError().orElseThrow().contains(file.toString()), fault.toString());
          assertTrue(fault.toString().startsWith("local storage fault"), fault.toString());
          // Every retry asks the authority again (a Query) before it fails to store the answer.
          int before = queries.get();
          Await.until("sync retries five times", () -> queries.get() >= before + 5);
          assertEquals(SyncStatus.State.STORAGE_FAULT, aliceSync.status().state());
          statement.execute("COMMIT");
        }
        assertTrue(aliceSync.awaitSynced(Duration.ofSeconds(20)), "synced once the file works: " + aliceSync.status());
        assertEquals(1, alice.read(SPACE, feed).size());
        String logged = log.text();
        assertEquals(1, attempts(logged), "the fault is logged once:\n" + logged);
        assertTrue(!logged.contains("\tat "), "no stack trace for a storage fault:\n" + logged);
      }
      assertTrue(seen.stream().noneMatch(s -> s.state() == SyncStatus.State.OFFLINE && s.lastError().isPresent()),
          "never reported as offline: " + seen);
      alice.close();
      channel.shutdownNow();
    }
  }

  /** The lines that report the fault (the recovery is logged at INFO, below these tests' level). */
  private static int attempts(String log) {
    String part = "the replica's storage failed: ";
    int count = 0;
    for (int at = log.indexOf(part); at >= 0; at = log.indexOf(part, at + 1)) {
      count++;
    }
    return count;
  }
}
