package dev.feedstore.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.ConnectOptions;
import dev.feedstore.client.Replica;
import dev.feedstore.client.SyncSession;
import dev.feedstore.core.ActorId;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.FeedInfo;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.postgres.testing.EmbeddedDatabase;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.testing.Await;
import dev.feedstore.testing.ServerProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three server processes (the runnable jar) over one PostgreSQL database, and six replicas (each
 * with a SQLite file of its own) appending to one space through them: each replica is given all
 * three addresses ({@code Replica.connect(List, ...)}) and picks one. Every run ends with every
 * replica holding every block at the same position, and the positions exactly 1..N.
 *
 * <p>The appending phase lasts about 8 s by default; {@code -Dfeed.hostile.heavy=true} makes it the
 * issue's 30 s.
 */
class PostgresProcessesIT {
  private static final SpaceId SPACE = new SpaceId("team");
  private static final Namespace NOTES = new Namespace("notes");
  private static final int REPLICAS = 6;
  private static final long APPEND_EVERY_MS = 40;
  private static final boolean HEAVY = Boolean.getBoolean("feed.hostile.heavy");

  @TempDir Path dir;
  private final List<ServerProcess> servers = new ArrayList<>();
  private final List<Writer> writers = new ArrayList<>();
  private EmbeddedDatabase database;

  @AfterEach
  void stop() throws Exception {
    for (Writer writer : writers) {
      writer.close();
    }
    for (ServerProcess server : servers) {
      server.close();
    }
    if (database != null) {
      database.close();
    }
  }

  @Test
  void sixReplicasThroughThreeProcessesConvergeOnPositionsOneToN() throws Exception {
    startDatabase(0);
    startServersAndReplicas();
    int each = appendFor(HEAVY ? Duration.ofSeconds(30) : Duration.ofSeconds(8));

    assertConverged(REPLICAS * each);
  }

  @Test
  void aProcessKilledUnderLoadLosesNoAcknowledgedAppendAndReplicasFailOver() throws Exception {
    startDatabase(0);
    startServersAndReplicas();
    writers.forEach(Writer::start);
    Await.until("the authority acknowledged appends of every replica", Duration.ofSeconds(60),
        () -> writers.stream().allMatch(w -> w.count() >= 20 && positioned(w.replica).size() >= 10));
    Map<BlockKey, Long> acknowledgedBefore = acknowledged();
    servers.get(0).kill();
    Await.until("every replica appended more after the kill", Duration.ofSeconds(60),
        () -> writers.stream().allMatch(w -> w.count() >= 60));
    writers.forEach(Writer::finish);

    int total = writers.stream().mapToInt(Writer::count).sum();
    assertConverged(total);
    assertTrue(acknowledgedBefore.size() >= REPLICAS, "appends were acknowledged before the kill");
    Map<BlockKey, Long> after = positioned(writers.get(0).replica);
    acknowledgedBefore.forEach((key, position) -> assertEquals(position, after.get(key),
        "block " + key + " keeps the position it was acknowledged at"));
  }

  @Test
  void aRestoredCopyOfTheDatabaseUnderRunningReplicasIsARollbackTheySurvive() throws Exception {
    Path data = dir.resolve("pgdata");
    int port = ServerSocketPorts.free();
    startDatabase(data, port);
    startServersAndReplicas();
    appendCount(10);
    assertConverged(REPLICAS * 10);

    database.close(); // a consistent copy: taken while the database is stopped
    Path backup = dir.resolve("pgdata-backup");
    EmbeddedDatabase.copyData(data, backup);
    startDatabase(data, port);
    appendCount(10);
    assertConverged(REPLICAS * 20);

    database.close();
    EmbeddedDatabase.deleteData(data);
    EmbeddedDatabase.copyData(backup, data); // the restore: the last 60 acknowledged blocks are gone from the database
    startDatabase(data, port);
    appendCount(5);

    assertConverged(REPLICAS * 25);
  }

  // ---------------------------------------------------------------- the set-up

  private void startDatabase(int port) {
    database = EmbeddedDatabase.start(dir.resolve("pgdata"), port);
  }

  private void startDatabase(Path data, int port) {
    database = EmbeddedDatabase.start(data, port);
  }

  private void startServersAndReplicas() throws IOException {
    String url = database.url("postgres");
    for (int i = 0; i < 3; i++) {
      Path serverDir = Files.createDirectories(dir.resolve("server-" + i));
      ServerProcess server = ServerProcess.startOnPostgres(serverDir, url, ServerProcess.freePort(), "--heartbeat-ms",
          "1000");
      server.awaitServing();
      servers.add(server);
    }
    List<String> targets = servers.stream().map(ServerProcess::address).toList();
    ConnectOptions options = ConnectOptions.newBuilder()
        .session(SyncSession.Options.DEFAULTS.withBackoff(Duration.ofMillis(100), Duration.ofSeconds(1))).build();
    for (int i = 0; i < REPLICAS; i++) {
      writers.add(new Writer(Replica.open(dir.resolve("replica-" + i + ".db"), new ActorId("replica-" + i)), targets,
          options));
    }
  }

  /** Every replica appends for about {@code time}; returns how many blocks each appended. */
  private int appendFor(Duration time) {
    int each = (int) (time.toMillis() / APPEND_EVERY_MS);
    appendCount(each);
    return each;
  }

  /** Every replica appends {@code count} more blocks, one every {@link #APPEND_EVERY_MS}. */
  private void appendCount(int count) {
    for (Writer writer : writers) {
      writer.target(writer.count() + count);
    }
    writers.forEach(Writer::start);
    Await.until("every replica appended its blocks", Duration.ofSeconds(120),
        () -> writers.stream().allMatch(Writer::reachedTarget));
    writers.forEach(Writer::finish);
  }

  // ---------------------------------------------------------------- the checks

  /**
   * Every replica holds {@code total} blocks, every one positioned, each at the same position in
   * every replica, and the positions are exactly 1..total; the servers say the same.
   */
  private void assertConverged(int total) {
    Await.until("every replica holds " + total + " positioned blocks", Duration.ofSeconds(120),
        () -> writers.stream().allMatch(w -> positioned(w.replica).size() == total));
    Map<BlockKey, Long> first = positioned(writers.get(0).replica);
    for (Writer writer : writers) {
      assertEquals(first, positioned(writer.replica), writer.replica.actorId() + " holds what the first replica holds");
    }
    assertEquals(LongStream.rangeClosed(1, total).boxed().toList(), first.values().stream().sorted().toList(),
        "positions are exactly 1.." + total);
    for (ServerProcess server : servers) {
      if (server.alive()) {
        assertEquals(total, FeedSyncGrpc.newBlockingStub(server.channel()).withDeadlineAfter(10, TimeUnit.SECONDS)
            .query(QueryRequest.newBuilder().setSpaceId(SPACE.value()).build()).getMaxPosition(), server.address());
      }
    }
  }

  /** The blocks some replica holds at a position the authority acknowledged, by key. */
  private Map<BlockKey, Long> acknowledged() {
    Map<BlockKey, Long> all = new TreeMap<>(Comparator.comparing(BlockKey::toString));
    writers.forEach(w -> all.putAll(positioned(w.replica)));
    return all;
  }

  /** The positioned blocks of the space the replica holds, by key. */
  private static Map<BlockKey, Long> positioned(Replica replica) {
    Map<BlockKey, Long> result = new TreeMap<>(Comparator.comparing(BlockKey::toString));
    for (FeedInfo feed : replica.feeds(SPACE)) {
      for (Block block : replica.read(SPACE, feed.feedId())) {
        if (block.isPositioned()) {
          result.put(block.key(), block.position().value());
        }
      }
    }
    return result;
  }

  /** One replica, its feed, its session (over every server) and its appending, paced by a timer. */
  private static final class Writer implements AutoCloseable {
    final Replica replica;
    private final FeedId feed;
    private final SyncSession session;
    private final AtomicInteger appended = new AtomicInteger();
    private volatile int target = Integer.MAX_VALUE;
    private ScheduledExecutorService timer;

    Writer(Replica replica, List<String> targets, ConnectOptions options) {
      this.replica = replica;
      replica.replicateNamespace(SPACE, NOTES, true);
      this.feed = replica.createFeed(SPACE, Optional.of(NOTES), Replication.fullHistory());
      this.session = replica.connect(targets, options);
    }

    void target(int value) {
      target = value;
    }

    int count() {
      return appended.get();
    }

    boolean reachedTarget() {
      return appended.get() >= target;
    }

    /** Appends one block every {@link #APPEND_EVERY_MS} until the target is reached or {@link #finish}. */
    void start() {
      timer = Executors.newSingleThreadScheduledExecutor();
      timer.scheduleAtFixedRate(() -> {
        if (appended.get() < target) {
          replica.append(SPACE, feed, BlockData.utf8(replica.actorId().value() + " #" + appended.get()));
          appended.incrementAndGet();
        }
      }, 0, APPEND_EVERY_MS, TimeUnit.MILLISECONDS);
    }

    void finish() {
      target = appended.get();
      timer.shutdown();
      try {
        assertTrue(timer.awaitTermination(10, TimeUnit.SECONDS), "the appending stopped");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    @Override
    public void close() {
      if (timer != null) {
        timer.shutdownNow();
      }
      session.close();
      replica.close();
    }
  }

  /** Free loopback ports. */
  private static final class ServerSocketPorts {
    static int free() {
      try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
        return socket.getLocalPort();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
