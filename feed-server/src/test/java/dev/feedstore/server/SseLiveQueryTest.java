package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.LIVE_QUERIES_PER_PRINCIPAL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.Row;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.QueryOracle;
import dev.feedstore.server.testing.SseReader;
import dev.feedstore.server.testing.Tasks;
import dev.feedstore.server.testing.TestServer;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Live queries over Server-Sent Events on a real server's HTTP edge: GET with the query as {@code q}
 * (what an EventSource opens) or POST with it as the body, resumed with {@code Last-Event-ID}.
 */
class SseLiveQueryTest {
  static final String TEXT = "key:/id where /status = \"open\"";
  static final LiveQuery OPEN = LiveQuery.parse("space:s " + TEXT);

  @TempDir Path dir;
  TestServer t;
  Tasks tasks;
  final List<SseReader> readers = new ArrayList<>();

  @BeforeEach
  void start() {
    t = TestServer.on(dir.resolve("feeds.db")).http().settings(ServerSettings.newBuilder()
        .set(HEARTBEAT_MS, 3_600_000).set(LIVE_QUERIES_PER_PRINCIPAL, 2).build()).start();
    tasks = new Tasks(t.blocking());
  }

  @AfterEach
  void stop() {
    readers.forEach(SseReader::close);
    t.close();
  }

  static String path() {
    return "/v1/spaces/s/live?q=" + URLEncoder.encode(TEXT, StandardCharsets.UTF_8);
  }

  SseReader get(String... headers) {
    SseReader reader = SseReader.open(t.http(), path(), headers);
    readers.add(reader);
    return reader;
  }

  /** The rows a client holds: document key to the position of its version. */
  static final class Held {
    final Map<String, Long> rows = new TreeMap<>();
    String lastId;

    /** Applies events until ready; returns the ack. */
    JsonObject untilReady(SseReader reader) {
      JsonObject ack = reader.next().json();
      SseReader.Event event;
      while (!(event = reader.next()).name().equals("ready")) {
        apply(event);
      }
      lastId = event.id();
      return ack;
    }

    void apply(SseReader.Event event) {
      JsonObject json = event.json();
      switch (event.name()) {
        case "reset" -> rows.clear();
        case "snapshot" -> json.getAsJsonArray("rows").forEach(this::put);
        case "changes" -> {
          json.getAsJsonArray("left").forEach(row -> assertTrue(rows.remove(key(row)) != null, row.toString()));
          json.getAsJsonArray("updated").forEach(update -> put(update.getAsJsonObject().get("current")));
          json.getAsJsonArray("entered").forEach(this::put);
          lastId = event.id();
        }
        default -> throw new AssertionError("unexpected " + event);
      }
    }

    private void put(JsonElement row) {
      rows.put(key(row), row.getAsJsonObject().get("position").getAsLong());
    }

    private static String key(JsonElement row) {
      return row.getAsJsonObject().get("key").toString();
    }
  }

  Map<String, Long> expected(long position) {
    Map<String, Long> rows = new TreeMap<>();
    for (Row row : QueryOracle.expected(t.blocking(), OPEN, position)) {
      rows.put(row.id().toJson().toString(), row.version().position().value());
    }
    return rows;
  }

  @Test
  void anEventSourceGetsTheSnapshotThenChangesAndResumesWithLastEventIdWithoutASnapshot() {
    long fence = tasks.append("1:open", "2:open", "3:done");
    Held held = new Held();
    SseReader reader = get();
    JsonObject ack = held.untilReady(reader);
    assertEquals(fence, ack.get("position").getAsLong());
    assertFalse(ack.get("resumed").getAsBoolean());
    assertEquals(OPEN.toJson(), ack.get("query").toString());
    assertEquals(expected(fence), held.rows);

    long next = tasks.append("3:open", "1:done");
    SseReader.Event changes = reader.next();
    assertEquals("changes", changes.name());
    assertTrue(changes.id().startsWith(next + "."), "the id is the resume token at the batch's position: " + changes);
    held.apply(changes);
    assertEquals(expected(next), held.rows);
    reader.close();

    tasks.append("2:done");
    long last = tasks.append("4:open");
    SseReader resumed = get("Last-Event-ID", held.lastId);
    JsonObject resumedAck = held.untilReady(resumed);
    assertTrue(resumedAck.get("resumed").getAsBoolean(), resumedAck.toString());
    assertEquals(expected(last), held.rows);
  }

  @Test
  void aPostCarriesTheQueryAsJsonInItsBodyAsDocsLiveQueriesShowsIt() throws Exception {
    long at = tasks.append("1:open", "2:done");
    // docs/live-queries.md, "At the edge": the space comes from the path.
    String body = "{\"key\":\"/id\",\"filter\":[{\"field\":\"/status\",\"op\":\"eq\",\"value\":\"open\"}]}";
    HttpRequest request = t.http().request("/v1/spaces/s/live").timeout(Duration.ofDays(1))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    SseReader reader = SseReader.open(t.http(), request);
    readers.add(reader);
    assertEquals(200, reader.response().statusCode());
    Held held = new Held();
    held.untilReady(reader);
    assertEquals(expected(at), held.rows);
  }

  @Test
  void refusalsAreJsonWithTheStatusOfTheirCode() {
    HttpResponse<String> invalid = t.http().get("/v1/spaces/s/live?q="
        + URLEncoder.encode("where /n < true", StandardCharsets.UTF_8));
    assertEquals(400, invalid.statusCode(), invalid.body());
    assertTrue(invalid.body().contains("filter[0]"), invalid.body());

    HttpResponse<String> noQuery = t.http().get("/v1/spaces/s/live");
    assertEquals(400, noQuery.statusCode(), noQuery.body());

    new Held().untilReady(get());
    new Held().untilReady(get());
    HttpResponse<String> third = t.http().get(path());
    assertEquals(429, third.statusCode(), third.body());
    assertTrue(third.body().contains("live-queries-per-principal"), third.body());
  }
}
