package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.STREAMS_SSE_MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.feedstore.testing.Await;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.SseReader;
import dev.feedstore.server.testing.Streams;
import dev.feedstore.server.testing.TestServer;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Durable Streams event stream ends after its lifetime ({@code streams-sse-ms}, here a few
 * milliseconds), cleanly and with the stream still open, and a client that reads on from the last
 * offset it got misses nothing and gets nothing twice.
 */
class StreamSseLifetimeTest {
  @TempDir Path dir;
  TestServer t;
  Streams streams;

  @BeforeEach
  void start() {
    t = TestServer.on(dir.resolve("feeds.db")).settings(ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000)
        .set(STREAMS_SSE_MS, 20).build()).http().start();
    streams = new Streams(t.http());
  }

  @AfterEach
  void stop() {
    t.close();
  }

  @Test
  void anEventStreamEndsAfterItsLifetimeAndTheClientReadsOnFromItsLastOffset() {
    streams.create("chat", "text/plain", "a");
    streams.append("chat", "text/plain", "b");

    Read first = readUntilEnd("offset=-1&live=sse");
    assertEquals("ab", first.data());
    streams.append("chat", "text/plain", "c");
    Read second = readUntilEnd("offset=" + first.lastOffset() + "&live=sse");
    Read third = readUntilEnd("offset=" + second.lastOffset() + "&live=sse");

    assertEquals("c", second.data(), "what came after the first response's last offset, once");
    assertEquals("", third.data());
    assertEquals(second.lastOffset(), third.lastOffset());
    assertFalse(streams.http().send(streams.request("chat", "").method("HEAD",
        java.net.http.HttpRequest.BodyPublishers.noBody()).build()).headers().firstValue("Stream-Closed").isPresent(),
        "the stream itself stays open");
    Await.until("every follower is released", Duration.ofSeconds(10), () -> t.server.openWatches() == 0);
  }

  /** What one event stream response carried before the server ended it. */
  private record Read(String data, String lastOffset) {}

  private Read readUntilEnd(String query) {
    try (SseReader events = SseReader.open(streams.http(), "/v1/stream/chat?" + query)) {
      assertEquals(200, events.response().statusCode());
      events.awaitEnd();
      StringBuilder data = new StringBuilder();
      String offset = null;
      for (SseReader.Event event : events.drain()) {
        if (event.name().equals("data")) {
          data.append(event.data());
        } else if (event.name().equals("control")) {
          assertFalse(event.json().has("streamClosed"), event.toString());
          offset = event.json().get("streamNextOffset").getAsString();
        }
      }
      if (offset == null) {
        throw new AssertionError("no control event before the end");
      }
      return new Read(data.toString(), offset);
    }
  }
}
