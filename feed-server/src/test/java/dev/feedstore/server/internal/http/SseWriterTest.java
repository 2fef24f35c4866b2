package dev.feedstore.server.internal.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * An event stream writes one batch at a time, and a write's completion (Jetty's callback) wakes the
 * stream's follower only when the follower found the writer busy meanwhile.
 */
class SseWriterTest {
  final RecordingOutput output = new RecordingOutput();
  final SseWriter writer = new SseWriter(output);
  final AtomicInteger wakes = new AtomicInteger();
  final AtomicInteger gone = new AtomicInteger();

  SseWriterTest() {
    writer.start(wakes::incrementAndGet, gone::incrementAndGet);
  }

  @Test
  void aWriteInFlightMakesTheWriterBusyAndItsEndWakesTheFollowerThatFoundItSo() {
    writer.write(text("a"));
    assertFalse(writer.isReady(), "busy while the socket takes the write");
    assertFalse(writer.isReady());

    output.complete();

    assertEquals(1, wakes.get(), "woken once, however often it looked");
    assertTrue(writer.isReady());
  }

  @Test
  void aWriteThatEndsBeforeTheFollowerLooksWakesNothing() {
    writer.write(text("a"));
    output.complete();
    assertTrue(writer.isReady());

    output.completeAtOnce();
    writer.write(text("b"));
    assertTrue(writer.isReady());

    assertEquals(0, wakes.get(), "the follower was never told the writer was busy");
    assertEquals(List.of("a", "b"), output.writes);
  }

  @Test
  void sharedEventsAreWrittenAsTheyAreAndAfterAnOpeningOnlyCopied() {
    byte[] shared = "id: 1\n\n".getBytes(StandardCharsets.UTF_8);
    output.completeAtOnce();
    writer.write("event: server-token\n\n", shared);
    writer.write("", shared);

    assertEquals(List.of("event: server-token\n\nid: 1\n\n", "id: 1\n\n"), output.writes);
    assertEquals(2, output.events);
  }

  @Test
  void theLastEventsWaitForTheWriteInFlightAndCompleteTheResponse() {
    writer.write(text("a"));
    writer.end(text("end"));
    assertEquals(List.of("a"), output.writes, "the end waits");
    assertFalse(writer.isReady());

    output.complete();

    assertEquals(List.of("a", "end"), output.writes);
    assertTrue(output.lastWritten);
    assertEquals(0, wakes.get(), "an ended stream is not woken");
    writer.write(text("late"));
    assertEquals(2, output.writes.size(), "nothing after the end");
  }

  @Test
  void aClientThatLeavesReleasesTheStreamAndFailsTheResponse() {
    writer.write(text("a"));
    IllegalStateException closed = new IllegalStateException("closed");

    output.leave(closed);

    assertEquals(1, gone.get());
    assertEquals("CANCELLED", output.endedWith);
    assertEquals(closed, output.failed);
    assertFalse(writer.isReady());
  }

  private static ByteBuffer text(String text) {
    return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
  }
}
