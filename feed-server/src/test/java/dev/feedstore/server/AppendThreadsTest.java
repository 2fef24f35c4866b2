package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.RPC_THREADS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.AppendResponse;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.Http;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.testing.Await;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which threads an append holds: groups are committed on the server's own committing thread,
 * which the server stops when it closes; an Append to a space the server has loaded needs no
 * request thread at all, and an append waiting for its group holds none (gRPC or HTTP), so
 * appends and reads do not starve each other of {@code rpc-threads}.
 */
class AppendThreadsTest {
  @TempDir Path dir;
  TestServer t;
  final FeedId feed = TestBlocks.feedId();
  final CountDownLatch gate = new CountDownLatch(1);

  @AfterEach
  void stop() {
    gate.countDown();
    if (t != null) {
      t.close();
    }
  }

  @Test
  void appendsAreCommittedOnTheCommittingThreadWhichEndsWithTheServer() {
    t = TestServer.on(dir.resolve("feeds.db")).loopback().start();
    // A space not loaded yet, the same space loaded, and an append too large to decode on the transport's thread.
    assertEquals(List.of(1L), t.blocking().append(Wire.append("s", Wire.block(feed, "a", 0))).getPositionsList());
    assertEquals(List.of(2L, 3L), t.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 1, 2)))
        .getPositionsList());
    ByteString large = ByteString.copyFrom(new byte[100_000]);
    AppendResponse big = t.blocking().append(Wire.append("s",
        Wire.block(feed, "a", 3).toBuilder().setData(large).build()));
    assertEquals(List.of(4L), big.getPositionsList());

    List<Thread> writers = List.copyOf(t.store.writers());
    assertEquals(1, writers.size(), "one thread committed every append: " + writers);
    Thread committer = writers.get(0);
    assertTrue(committer.getName().startsWith("feed-commit-"), committer.getName());

    t.close();
    t = null;
    Await.until("the committing thread ends once the server is closed", Duration.ofSeconds(30),
        () -> !committer.isAlive());
  }

  @Test
  void anAppendToALoadedSpaceIsAnsweredWhileEveryRequestThreadIsBusy() throws Exception {
    t = TestServer.on(dir.resolve("feeds.db")).loopback()
        .settings(ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).set(RPC_THREADS, 1).build())
        .start();
    t.blocking().append(Wire.append("s", Wire.block(feed, "a", 0)));
    AtomicInteger heldReads = new AtomicInteger();
    t.store.beforeRead(() -> {
      if (Thread.currentThread().getName().startsWith("feed-rpc-")) {
        heldReads.incrementAndGet();
        awaitGate();
      }
    });
    CompletableFuture<QueryResponse> query = CompletableFuture.supplyAsync(() ->
        t.blocking().query(QueryRequest.newBuilder().setSpaceId("s").setLimit(10).build()));
    Await.until("the Query holds the only request thread", Duration.ofSeconds(30), () -> heldReads.get() == 1);

    AppendResponse appended = t.blocking().append(Wire.append("s", Wire.block(feed, "a", 1)));

    assertEquals(List.of(2L), appended.getPositionsList());
    assertFalse(query.isDone());
    gate.countDown();
    assertEquals(2, query.get(30, TimeUnit.SECONDS).getBlocksCount());
  }

  @Test
  void anHttpAppendWaitingForItsCommitHoldsNoRequestThread() throws Exception {
    t = TestServer.on(dir.resolve("feeds.db")).http()
        .settings(ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).set(RPC_THREADS, 1).build())
        .start();
    Http http = t.http();
    assertEquals(200, http.append("s", feed.value(), "a", 0, 1).statusCode());
    AtomicInteger heldWrites = new AtomicInteger();
    t.store.beforeWrite(() -> {
      heldWrites.incrementAndGet();
      awaitGate();
    });
    CompletableFuture<HttpResponse<String>> append = CompletableFuture.supplyAsync(() ->
        http.append("s", feed.value(), "a", 1, 1));
    Await.until("the append's commit is held", Duration.ofSeconds(30), () -> heldWrites.get() == 1);

    HttpResponse<String> page = http.get("/v1/spaces/s/blocks");

    assertEquals(200, page.statusCode(), page.body());
    assertEquals(1, Http.json(page).getAsJsonArray("blocks").size());
    assertFalse(append.isDone());
    gate.countDown();
    HttpResponse<String> appended = append.get(30, TimeUnit.SECONDS);
    assertEquals(200, appended.statusCode(), appended.body());
    assertEquals("[2]", Http.json(appended).get("positions").toString());
  }

  private void awaitGate() {
    Await.open("the test opens the gate", Duration.ofSeconds(60), gate);
  }
}
