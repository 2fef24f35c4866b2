package dev.feedstore.server;

import static dev.feedstore.server.testing.WatchEvents.positionsUpTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.AppendResponse;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.testing.EventRecorder;
import dev.feedstore.server.testing.PostgresServer;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.testing.Await;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Three servers, each with a store of its own, on one PostgreSQL database: what three processes
 * behind a load balancer are. (The same with the runnable jar as three processes: {@code
 * PostgresProcessesIT}.)
 */
class SharedPostgresTest {
  private static final String SPACE = "shared";
  private final List<PostgresServer> servers = new ArrayList<>();

  @AfterEach
  void stop() {
    servers.forEach(PostgresServer::close);
  }

  private List<PostgresServer> three() {
    String url = PostgresServer.newDatabase();
    for (int i = 0; i < 3; i++) {
      servers.add(PostgresServer.on(url));
    }
    return servers;
  }

  @Test
  void appendsThroughEveryServerGetEveryPositionOnceAndDensely() throws Exception {
    List<PostgresServer> s = three();
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      List<Future<List<Long>>> results = new ArrayList<>();
      for (int w = 0; w < 6; w++) {
        PostgresServer server = s.get(w % 3);
        FeedId feed = TestBlocks.feedId();
        results.add(pool.submit(() -> {
          List<Long> positions = new ArrayList<>();
          for (int i = 0; i < 30; i += 3) {
            positions.addAll(server.blocking().append(Wire.append(SPACE, Wire.blocks(feed, "w", i, 3))).getPositionsList());
          }
          return positions;
        }));
      }
      List<Long> all = new ArrayList<>();
      for (Future<List<Long>> result : results) {
        all.addAll(result.get());
      }
      Collections.sort(all);
      assertEquals(LongStream.rangeClosed(1, 180).boxed().toList(), all);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aWatchOnOneServerSeesAppendsThroughTheOthersEachOnceInOrder() throws Exception {
    List<PostgresServer> s = three();
    EventRecorder<WatchEvent> watch = new EventRecorder<>();
    s.get(0).async().watch(WatchRequest.newBuilder().setSpaceId(SPACE).build(), watch);
    assertEquals(WatchEvent.EventCase.CAUGHT_UP, nextNonEmpty(watch).getEventCase());

    ExecutorService pool = Executors.newFixedThreadPool(2);
    List<Long> appended = Collections.synchronizedList(new ArrayList<>());
    try {
      List<Future<?>> writers = new ArrayList<>();
      for (PostgresServer writer : List.of(s.get(1), s.get(2))) {
        FeedId feed = TestBlocks.feedId();
        writers.add(pool.submit(() -> {
          for (int i = 0; i < 40; i += 2) {
            AppendResponse response = writer.blocking().append(Wire.append(SPACE, Wire.blocks(feed, "w", i, 2)));
            appended.addAll(response.getPositionsList());
          }
        }));
      }
      for (Future<?> writer : writers) {
        writer.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(LongStream.rangeClosed(1, 80).boxed().toList(), appended.stream().sorted().toList());
    assertEquals(LongStream.rangeClosed(1, 80).boxed().toList(), positionsUpTo(watch, 80),
        "every block appended through the other servers, once, in position order");
  }

  @Test
  void aWatchKeepsUpAcrossALostListeningConnection() throws Exception {
    List<PostgresServer> s = three();
    FeedId feed = TestBlocks.feedId();
    s.get(1).blocking().append(Wire.append(SPACE, Wire.blocks(feed, "w", 0, 2)));
    EventRecorder<WatchEvent> watch = new EventRecorder<>();
    s.get(0).async().watch(WatchRequest.newBuilder().setSpaceId(SPACE).build(), watch);
    assertEquals(List.of(1L, 2L), positionsUpTo(watch, 2));

    try (Connection c = DriverManager.getConnection(s.get(0).url); Statement statement = c.createStatement()) {
      statement.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
          + " WHERE application_name = 'feed-server listener' AND datname = current_database()");
    }
    // Appended while (some of) the listening connections are down: their notifications are lost.
    s.get(1).blocking().append(Wire.append(SPACE, Wire.blocks(feed, "w", 2, 3)));
    s.get(2).blocking().append(Wire.append(SPACE, Wire.blocks(feed, "w", 5, 1)));

    assertEquals(List.of(3L, 4L, 5L, 6L), positionsUpTo(watch, 6), "read from the cursor once listening again");
    assertEquals(6, s.get(0).blocking().query(QueryRequest.newBuilder().setSpaceId(SPACE).build()).getMaxPosition());
  }

  /** The next event that is not a heartbeat. */
  private static WatchEvent nextNonEmpty(EventRecorder<WatchEvent> watch) {
    WatchEvent event = watch.next();
    while (event.getEventCase() == WatchEvent.EventCase.HEARTBEAT) {
      event = watch.next();
    }
    return event;
  }
}
