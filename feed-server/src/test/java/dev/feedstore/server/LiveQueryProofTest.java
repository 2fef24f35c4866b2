package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.LIVE_QUERY_RECENT_ROWS;
import static dev.feedstore.server.settings.ServerSettings.TAIL_BLOCKS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.LiveQueryView;
import dev.feedstore.server.testing.QueryOracle;
import dev.feedstore.server.testing.Tasks;
import dev.feedstore.server.testing.TestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * The proof of the live queries at the edge: subscribers of several queries attach, read, go away
 * and come back with their resume token while commits land, on a server that keeps few recent
 * batches and few recent blocks (so that subscribers fall behind and catch up from storage, and the
 * evaluation reads storage too). Each view checks every event against what it holds (an update's
 * previous row and a leaving row are the ones held, an entering row is not held: no change missed
 * or repeated), and at the end each holds what the query evaluated from scratch gives at the final
 * position. Seeded: a failure names its seed.
 */
class LiveQueryProofTest {
  static final List<LiveQuery> QUERIES = List.of(
      LiveQuery.parse("space:s key:/id where /status = \"open\""),
      LiveQuery.parse("space:s key:/id where /status = \"open\" order /rank desc limit 4"),
      LiveQuery.parse("space:s key:/id select /status tombstone /status = \"deleted\""),
      LiveQuery.parse("space:s key:/id where /rank >= 5 order /rank limit 3"),
      LiveQuery.parse("space:s"));
  static final String[] STATUSES = {"open", "done", "deleted"};

  @TempDir Path dir;
  TestServer t;

  @BeforeEach
  void start() {
    t = TestServer.on(dir.resolve("feeds.db")).settings(ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000)
        .set(LIVE_QUERY_RECENT_ROWS, 3L).set(TAIL_BLOCKS, 8).build()).start();
  }

  @AfterEach
  void stop() {
    t.close();
  }

  @RepeatedTest(3)
  void snapshotPlusChangesIsTheQueryAtTheFinalPositionForEverySubscriber(RepetitionInfo repetition) {
    long seed = 7_000 + repetition.getCurrentRepetition();
    Random random = new Random(seed);
    Tasks tasks = new Tasks(t.blocking());
    tasks.append("0:open:1");
    AtomicLong last = new AtomicLong();
    long appenderSeed = random.nextLong();
    CompletableFuture<Void> appends = CompletableFuture.runAsync(() -> {
      Random commits = new Random(appenderSeed);
      for (int commit = 0; commit < 150; commit++) {
        String[] versions = new String[1 + commits.nextInt(4)];
        for (int i = 0; i < versions.length; i++) {
          versions[i] = commits.nextInt(25) + ":" + STATUSES[commits.nextInt(3)] + ":" + commits.nextInt(10);
        }
        last.set(tasks.append(versions));
      }
    });

    List<LiveQueryView> views = new ArrayList<>();
    List<Boolean> connected = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      views.add(new LiveQueryView(QUERIES.get(random.nextInt(QUERIES.size()))).open(t.async()));
      connected.add(true);
    }
    int reconnects = 0;
    while (!appends.isDone()) {
      int i = random.nextInt(views.size());
      LiveQueryView view = views.get(i);
      if (!connected.get(i)) {
        view.open(t.async());
        connected.set(i, true);
        reconnects++;
      } else if (random.nextInt(4) == 0) {
        drainAvailable(view);
        view.disconnect();
        connected.set(i, false);
      } else {
        drainAvailable(view);
      }
    }
    appends.join();
    long end = last.get();
    for (int i = 0; i < views.size(); i++) {
      LiveQueryView view = views.get(i);
      if (!connected.get(i)) {
        view.open(t.async());
      }
      awaitPosition(view, end);
      assertEquals(QueryOracle.expected(t.blocking(), viewQuery(view), end), view.rows(),
          "seed " + seed + ", subscriber " + i + " of " + viewQuery(view));
    }
    assertTrue(reconnects > 0, "seed " + seed + ": subscribers came back");
  }

  private static LiveQuery viewQuery(LiveQueryView view) {
    return view.query();
  }

  /**
   * Applies events until the view is as of {@code end}: a query whose result did not change since
   * learns the position from a heartbeat, so when nothing has arrived the server ticks twice (an
   * interval with nothing sent is one whole interval between two ticks).
   */
  private void awaitPosition(LiveQueryView view, long end) {
    while (!view.isReady() || view.position() < end) {
      if (view.events().pending() == 0) {
        t.server.tick();
        t.server.tick();
      }
      view.next();
    }
  }

  /** Applies the events that arrived, without waiting for more; stops at a stream's end. */
  private static void drainAvailable(LiveQueryView view) {
    while (view.events().pending() > 0) {
      view.next();
    }
  }
}
