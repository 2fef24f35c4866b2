package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.StreamName;
import dev.feedstore.server.testing.PostgresServer;
import dev.feedstore.server.testing.SseReader;
import dev.feedstore.server.testing.Streams;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Durable Streams served by two servers, each with a store of its own, on one PostgreSQL database
 * (what two processes behind a load balancer are): one stream written and read through both, a
 * live read on one server woken by an append through the other, and a producer's sequence and
 * concurrent appends kept whole across them.
 */
class SharedPostgresStreamsTest {
  private PostgresServer a;
  private PostgresServer b;

  @BeforeEach
  void start() {
    String url = PostgresServer.newDatabase();
    a = PostgresServer.withHttp(url);
    b = PostgresServer.withHttp(url);
  }

  @AfterEach
  void stop() {
    if (a != null) {
      a.close();
    }
    if (b != null) {
      b.close();
    }
  }

  @Test
  void aStreamCreatedThroughOneServerIsAppendedToAndReadThroughTheOther() {
    Streams viaA = new Streams(a.http());
    Streams viaB = new Streams(b.http());
    assertEquals(201, viaA.create("chat/room-1", "text/plain", "hello ").statusCode());
    HttpResponse<String> appended = viaB.append("chat/room-1", "text/plain", "world");
    assertEquals(204, appended.statusCode(), appended.body());

    HttpResponse<String> readOnA = viaA.read("chat/room-1", "offset=-1");
    assertEquals("hello world", readOnA.body());
    assertEquals(Streams.offset(appended), Streams.offset(readOnA), "one tail, whichever server is asked");
    assertEquals(200, viaB.create("chat/room-1", "text/plain", "").statusCode(),
        "creating it again through the other server confirms the same stream");
  }

  @Test
  void aStreamClosedThroughOneServerTakesNoBlockInItsFeedThroughTheOther() {
    Streams viaA = new Streams(a.http());
    viaA.create("done", "text/plain", "a");
    String end = Streams.offset(viaA.append("done", "text/plain", "", "Stream-Closed", "true"));

    HttpResponse<String> refused = b.http().append("streams", StreamName.of("done").feedId(0).value(), "replica", 1, 1);
    assertEquals(409, refused.statusCode(), refused.body());
    assertTrue(refused.body().contains("STREAM_CLOSED") && refused.body().contains(end), refused.body());
    assertEquals("a", new Streams(b.http()).read("done", "offset=-1").body());
  }

  @Test
  void aProducersSequenceHoldsAcrossServers() {
    Streams viaA = new Streams(a.http());
    Streams viaB = new Streams(b.http());
    viaA.create("orders", "text/plain", "");
    for (int seq = 0; seq < 6; seq++) {
      Streams via = seq % 2 == 0 ? viaA : viaB;
      HttpResponse<String> sent = via.append("orders", "text/plain", "order " + seq + ";",
          "Producer-Id", "checkout", "Producer-Epoch", "0", "Producer-Seq", Integer.toString(seq));
      assertEquals(200, sent.statusCode(), "seq " + seq + ": " + sent.body());
    }
    HttpResponse<String> retried = viaB.append("orders", "text/plain", "order 4;",
        "Producer-Id", "checkout", "Producer-Epoch", "0", "Producer-Seq", "4");
    assertEquals(204, retried.statusCode(), "a retry through the other server is the duplicate it is");
    HttpResponse<String> skipped = viaA.append("orders", "text/plain", "order 9;",
        "Producer-Id", "checkout", "Producer-Epoch", "0", "Producer-Seq", "9");
    assertEquals(409, skipped.statusCode());
    assertEquals("order 0;order 1;order 2;order 3;order 4;order 5;", viaB.read("orders", "offset=-1").body());
  }

  @Test
  void aLiveReadOnServerBGetsAnAppendThroughServerA() {
    Streams viaA = new Streams(a.http());
    Streams viaB = new Streams(b.http());
    viaA.create("live", "text/plain", "before");
    try (SseReader events = SseReader.open(viaB.http(), "/v1/stream/live?offset=now&live=sse")) {
      SseReader.Event caughtUp = events.next();
      assertEquals("control", caughtUp.name());
      assertTrue(caughtUp.json().get("upToDate").getAsBoolean());

      HttpResponse<String> appended = viaA.append("live", "text/plain", "through A");
      SseReader.Event data = events.next("data");
      assertEquals("through A", data.data());
      SseReader.Event control = events.next("control");
      assertEquals(Streams.offset(appended), control.json().get("streamNextOffset").getAsString());
    }
  }

  @Test
  void concurrentAppendsThroughBothServersAreEachStoredOnce() throws Exception {
    Streams viaA = new Streams(a.http());
    Streams viaB = new Streams(b.http());
    viaA.create("busy", "text/plain", "");
    int writers = 4;
    int appends = 15;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      List<Future<List<String>>> results = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        Streams via = w % 2 == 0 ? viaA : viaB;
        String writer = "w" + w;
        results.add(pool.submit(() -> {
          List<String> offsets = new ArrayList<>();
          for (int i = 0; i < appends; i++) {
            HttpResponse<String> sent = via.append("busy", "text/plain", writer + "." + i + ";");
            assertEquals(204, sent.statusCode(), writer + " append " + i + ": " + sent.body());
            offsets.add(Streams.offset(sent));
          }
          return offsets;
        }));
      }
      List<String> offsets = new ArrayList<>();
      for (Future<List<String>> result : results) {
        List<String> own = result.get(120, TimeUnit.SECONDS);
        assertEquals(own.stream().sorted().toList(), own, "one writer's offsets grow");
        offsets.addAll(own);
      }
      assertEquals(writers * appends, offsets.stream().distinct().count(), "every append has an offset of its own");
      String body = viaB.read("busy", "offset=-1").body();
      List<String> stored = List.of(body.split(";"));
      assertEquals(writers * appends, stored.size(), body);
      assertEquals(writers * appends, stored.stream().distinct().count(), body);
      for (int w = 0; w < writers; w++) {
        String writer = "w" + w;
        assertEquals(java.util.stream.IntStream.range(0, appends).mapToObj(i -> writer + "." + i).toList(),
            stored.stream().filter(s -> s.startsWith(writer + ".")).toList(), "each writer's appends in its order");
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
