package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.server.testing.SseReader;
import dev.feedstore.server.testing.Streams;
import dev.feedstore.server.testing.TestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code streamCursor} of a Durable Streams event stream whose client echoed a cursor (as a
 * client does on every reconnect): one response keeps one cursor while it is ahead of the current
 * interval, so its control events never go back, and the readers' events stay shareable.
 */
class StreamSseCursorTest {
  /** A cursor far past the current interval: the server answers with a later one. */
  private static final long ECHOED = 1_000_000_000L;

  @TempDir Path dir;
  TestServer t;
  Streams streams;

  @BeforeEach
  void start() {
    t = TestServer.on(dir.resolve("feeds.db")).http().start();
    streams = new Streams(t.http());
  }

  @AfterEach
  void stop() {
    t.close();
  }

  @Test
  void aResponseToAnEchoedCursorKeepsOneCursorThatNeverGoesBack() {
    streams.create("chat", "text/plain", "a");
    List<Long> cursors = new ArrayList<>();
    try (SseReader events = SseReader.open(streams.http(), "/v1/stream/chat?offset=-1&live=sse&cursor=" + ECHOED)) {
      assertEquals(200, events.response().statusCode());
      cursors.add(cursor(events.next("control")));
      for (int i = 0; i < 20; i++) {
        streams.append("chat", "text/plain", "m" + i);
        cursors.add(cursor(events.next("control")));
      }
    }
    assertTrue(cursors.get(0) > ECHOED, "a cursor past the echoed one: " + cursors);
    assertEquals(List.of(cursors.get(0)), cursors.stream().distinct().toList(),
        "every control event of the response carries the cursor it opened with");
  }

  private static long cursor(SseReader.Event control) {
    return Long.parseLong(control.json().get("streamCursor").getAsString());
  }
}
