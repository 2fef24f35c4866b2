package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.COMPRESS_MIN_BYTES;
import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.Http;
import dev.feedstore.server.testing.SseReader;
import dev.feedstore.server.testing.Streams;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * gzip on the HTTP API, over a real socket: an answer of at least compress-min-bytes goes gzipped to
 * a client whose Accept-Encoding takes gzip (pages, the other calls' JSON, Durable Streams catch-up
 * reads, with their ETags), smaller answers and event streams as they are; a body sent in gzip is
 * taken.
 */
class HttpCompressionTest {
  private static final String GZIP = "gzip";
  @TempDir Path dir;
  final FeedId feed = TestBlocks.feedId();
  TestServer t;
  Http http;

  @AfterEach
  void stop() {
    t.close();
  }

  void start(int compressMinBytes) {
    t = TestServer.on(dir.resolve("feeds.db")).settings(ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000)
        .set(COMPRESS_MIN_BYTES, compressMinBytes).build()).http().start();
    http = t.http();
    List<dev.feedstore.proto.v1.Block> blocks = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      blocks.add(Wire.block(feed, "a", i).toBuilder().setData(ByteString.copyFromUtf8("{\"id\":" + i
          + ",\"text\":\"a message like the ones before it\"}")).build());
    }
    t.blocking().append(Wire.append("s", blocks));
  }

  @Test
  void aPageGoesGzippedToAClientThatTakesGzipAndAsItIsToOneThatDoesNot() {
    start(1024);

    HttpResponse<byte[]> gzipped = get("/v1/spaces/s/blocks", "Accept-Encoding", "gzip, deflate");
    HttpResponse<byte[]> plain = get("/v1/spaces/s/blocks");

    assertEquals(200, gzipped.statusCode());
    assertEquals(GZIP, gzipped.headers().firstValue("Content-Encoding").orElse(""));
    assertTrue(gzipped.headers().allValues("Vary").toString().contains("Accept-Encoding"), gzipped.headers().map()
        .toString());
    assertFalse(plain.headers().firstValue("Content-Encoding").isPresent());
    assertArrayEquals(plain.body(), gunzip(gzipped.body()), "the same page, inflated");
    assertTrue(gzipped.body().length * 4 < plain.body().length, gzipped.body().length + " bytes gzipped of "
        + plain.body().length);
  }

  @Test
  void theOtherCallsAnswersGoGzippedToo() {
    start(1024);
    for (int i = 0; i < 30; i++) {
      t.blocking().append(Wire.append("s", Wire.block(TestBlocks.feedId(), "a", 0)));
    }

    HttpResponse<byte[]> feeds = get("/v1/spaces/s/feeds", "Accept-Encoding", GZIP);

    assertEquals(200, feeds.statusCode());
    assertEquals(GZIP, feeds.headers().firstValue("Content-Encoding").orElse(""));
    assertTrue(new String(gunzip(feeds.body()), StandardCharsets.UTF_8).startsWith("{\"feeds\":[{\"feed_id\""));
  }

  @Test
  void smallAnswersAndEventStreamsGoAsTheyAre() {
    start(1024);

    HttpResponse<byte[]> info = get("/v1/server", "Accept-Encoding", GZIP);
    assertEquals(200, info.statusCode());
    assertFalse(info.headers().firstValue("Content-Encoding").isPresent());

    try (SseReader events = SseReader.open(http, "/v1/spaces/s/events", "Accept-Encoding", GZIP)) {
      assertEquals(100, events.positions(100).size());
      assertEquals("caught-up", events.next("caught-up").name());
      assertFalse(events.response().headers().firstValue("Content-Encoding").isPresent());
    }
    Streams streams = new Streams(http);
    streams.create("live", "text/plain", "x".repeat(5000));
    try (SseReader events = SseReader.open(http, "/v1/stream/live?offset=-1&live=sse", "Accept-Encoding", GZIP)) {
      assertEquals("x".repeat(5000), events.next("data").data(), "readable as it came: not compressed");
      assertFalse(events.response().headers().firstValue("Content-Encoding").isPresent());
    }
  }

  @Test
  void aDurableStreamsCatchUpReadGoesGzippedAndItsEtagStillMatches() {
    start(1024);
    Streams streams = new Streams(http);
    String text = "line of a log that repeats itself\n".repeat(200);
    streams.create("log", "text/plain", text);

    HttpResponse<byte[]> read = get("/v1/stream/log?offset=-1", "Accept-Encoding", GZIP);
    assertEquals(200, read.statusCode());
    assertEquals(GZIP, read.headers().firstValue("Content-Encoding").orElse(""));
    assertEquals(text, new String(gunzip(read.body()), StandardCharsets.UTF_8));
    String etag = read.headers().firstValue("ETag").orElseThrow();

    HttpResponse<byte[]> again = get("/v1/stream/log?offset=-1", "Accept-Encoding", GZIP, "If-None-Match", etag);
    assertEquals(304, again.statusCode(), "the ETag of the gzipped answer names the same content");
    assertEquals(0, again.body().length);
  }

  @Test
  void aBodySentInGzipIsTaken() {
    start(1024);
    byte[] body = gzip(("{\"blocks\":[{\"actor_id\":\"z\",\"sequence\":0,\"data\":\"aGk=\"}]}")
        .getBytes(StandardCharsets.UTF_8));

    HttpResponse<String> appended = http.send(http.request("/v1/spaces/s/feeds/" + feed.value() + "/blocks")
        .header("Content-Type", "application/json").header("Content-Encoding", GZIP)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());

    assertEquals(200, appended.statusCode(), appended.body());
    assertEquals("[101]", Http.json(appended).get("positions").toString());
  }

  @Test
  void aMinimumOfZeroCompressesNothing() {
    start(0);

    HttpResponse<byte[]> page = get("/v1/spaces/s/blocks", "Accept-Encoding", GZIP);

    assertEquals(200, page.statusCode());
    assertFalse(page.headers().firstValue("Content-Encoding").isPresent());
  }

  private HttpResponse<byte[]> get(String path, String... headers) {
    HttpRequest.Builder request = http.request(path).GET();
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    try {
      return http.client().send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static byte[] gunzip(byte[] bytes) {
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static byte[] gzip(byte[] bytes) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
      gzip.write(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
