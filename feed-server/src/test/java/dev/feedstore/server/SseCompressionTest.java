package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.SSE_GZIP_LEVEL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.Http;
import dev.feedstore.server.testing.SseReader;
import dev.feedstore.server.testing.Streams;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Event streams gzipped ({@code sse-gzip-level} above 0), over a real socket: a client whose
 * Accept-Encoding takes gzip gets each live event decoded as it arrives (the next block is appended
 * only once the last one's event was read, so an event the server held in its deflater would never
 * arrive), on the API's event stream and on Durable Streams'; a stream the server ends is one whole
 * gzip member, trailer included; a client that does not take gzip gets the events as they are.
 */
class SseCompressionTest {
  private static final String GZIP = "gzip";
  @TempDir Path dir;
  final FeedId feed = TestBlocks.feedId();
  TestServer t;
  Http http;

  @BeforeEach
  void start() {
    t = TestServer.on(dir.resolve("feeds.db")).settings(ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000)
        .set(SSE_GZIP_LEVEL, 6).build()).http().start();
    http = t.http();
    t.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 0, 3)));
  }

  @AfterEach
  void stop() {
    t.close();
  }

  @Test
  void theApiEventStreamGoesGzippedAndEachLiveEventIsDecodedAsItArrives() {
    try (SseReader events = SseReader.open(http, "/v1/spaces/s/events", "Accept-Encoding", "deflate, gzip")) {
      assertEquals(GZIP, events.response().headers().firstValue("Content-Encoding").orElse(""));
      assertTrue(events.response().headers().allValues("Vary").toString().contains("Accept-Encoding"));
      assertEquals(List.of(1L, 2L, 3L), events.positions(3));
      assertEquals("caught-up", events.next("caught-up").name());
      for (int i = 3; i < 8; i++) {
        t.blocking().append(Wire.append("s", Wire.block(feed, "a", i)));
        assertEquals(List.of(i + 1L), events.positions(1), "the event of the block at " + (i + 1) + " alone");
      }
    }
  }

  @Test
  void aDurableStreamsEventStreamGoesGzippedAndEachLiveEventIsDecodedAsItArrives() {
    Streams streams = new Streams(http);
    streams.create("chat", "text/plain", "hello");
    try (SseReader events = SseReader.open(http, "/v1/stream/chat?offset=-1&live=sse", "Accept-Encoding", GZIP)) {
      assertEquals(GZIP, events.response().headers().firstValue("Content-Encoding").orElse(""));
      assertEquals("hello", events.next("data").data());
      for (String text : List.of("one", "two", "three")) {
        streams.append("chat", "text/plain", text);
        assertEquals(text, events.next("data").data());
      }
    }
  }

  @Test
  void anEventStreamTheServerEndsIsOneWholeGzipMember() throws IOException {
    Streams streams = new Streams(http);
    streams.create("done", "text/plain", "first");
    streams.append("done", "text/plain", "last", "Stream-Closed", "true");

    HttpResponse<byte[]> read = http.send(streams.request("done", "offset=-1&live=sse", "Accept-Encoding", GZIP)
        .GET().build(), HttpResponse.BodyHandlers.ofByteArray());

    assertEquals(GZIP, read.headers().firstValue("Content-Encoding").orElse(""));
    // GZIPInputStream checks the trailer's CRC and length at the end of the member.
    String text = new String(new GZIPInputStream(new ByteArrayInputStream(read.body())).readAllBytes(),
        StandardCharsets.UTF_8);
    assertTrue(text.startsWith("event: data\ndata:firstlast\n"), text);
    assertTrue(text.contains("\"streamClosed\":true"), text);
  }

  @Test
  void aClientThatDoesNotTakeGzipGetsTheEventsAsTheyAre() {
    for (String[] headers : List.of(new String[0], new String[] {"Accept-Encoding", "gzip;q=0, deflate"},
        new String[] {"Accept-Encoding", "identity"})) {
      try (SseReader events = SseReader.open(http, "/v1/spaces/s/events", headers)) {
        assertFalse(events.response().headers().firstValue("Content-Encoding").isPresent(), List.of(headers)
            .toString());
        assertEquals(List.of(1L, 2L, 3L), events.positions(3));
      }
    }
  }
}
