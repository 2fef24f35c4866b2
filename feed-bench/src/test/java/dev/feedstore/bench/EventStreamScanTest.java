package dev.feedstore.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.junit.jupiter.api.Test;

/**
 * The fan-out cases' readers find every block of a chunked event stream, and its due time, however
 * the bytes are split between reads, and fail a stream that is not what the server sends.
 */
class EventStreamScanTest {
  private static final long READ_AT = TimeUnit.SECONDS.toNanos(100);
  private static final int BLOCKS = 30;

  @Test
  void anEventStreamsBlocksAreCountedWithTheirDelaysHoweverTheReadsSplitThem() throws IOException {
    for (int split : List.of(1, 2, 3, 7, 64, 1000, Integer.MAX_VALUE)) {
      Recorder recorder = StreamMeasure.delays();
      SseBench.Stream stream = new SseBench.Stream(recorder);

      assertTrue(feed(new EventStreamResponse(stream), chunked(sseEvents(2, BLOCKS, false)), split));

      assertEquals(BLOCKS, stream.blocks.get(), "split " + split);
      assertEquals(0, stream.live.getCount(), "live at its caught-up event, split " + split);
      assertDelays(recorder);
    }
  }

  @Test
  void aDurableStreamsReadersBlocksAreCountedWithTheirDelaysHoweverTheReadsSplitThem() throws IOException {
    for (int split : List.of(1, 2, 3, 7, 64, 1000, Integer.MAX_VALUE)) {
      Recorder recorder = StreamMeasure.delays();
      StreamsFanoutBench.Reader reader = new StreamsFanoutBench.Reader(recorder);

      assertTrue(feed(new EventStreamResponse(reader), chunked(durableEvents(BLOCKS, 0)), split));

      assertEquals(BLOCKS, reader.blocks.get(), "split " + split);
      assertEquals(0, reader.live.getCount(), "live at its first control event, split " + split);
      assertDelays(recorder);
    }
  }

  @Test
  void anEventStreamThatSkipsOrRepeatsAPositionFails() {
    byte[] skipping = concat(sseEvents(2, 5, false), sseEvents(8, 5, true));
    byte[] repeating = concat(sseEvents(2, 5, false), sseEvents(7, 5, true), sseEvents(11, 1, true));

    assertEquals("the stream went from position 6 to 8", assertThrows(IOException.class,
        () -> feed(new EventStreamResponse(new SseBench.Stream(StreamMeasure.delays())), chunked(skipping), 100))
        .getMessage());
    assertEquals("the stream went from position 11 to 11", assertThrows(IOException.class,
        () -> feed(new EventStreamResponse(new SseBench.Stream(StreamMeasure.delays())), chunked(repeating), 100))
        .getMessage());
  }

  @Test
  void aBlockCutShortFailsTheStreamInsteadOfCounting() {
    byte[] cut = new String(sseEvents(2, 3, false), StandardCharsets.US_ASCII).replace("AA==\"}", "==\"}")
        .getBytes(StandardCharsets.US_ASCII);
    byte[] durableCut = durableEvents(3, 2);

    assertTrue(assertThrows(IOException.class, () -> feed(new EventStreamResponse(
        new SseBench.Stream(StreamMeasure.delays())), chunked(cut), 100)).getMessage()
        .startsWith("the event of position 2 is not a block whose data is 344 base64 characters"));
    assertTrue(assertThrows(IOException.class, () -> feed(new EventStreamResponse(
        new StreamsFanoutBench.Reader(StreamMeasure.delays())), chunked(durableCut), 100)).getMessage()
        .startsWith("a block's text does not start with its due time"));
  }

  @Test
  void aResponseOtherThan200FailsNamingItsStatus() {
    byte[] refused = "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 2\r\n\r\n{}".getBytes(StandardCharsets.US_ASCII);

    assertEquals("the event stream was answered HTTP/1.1 503 Service Unavailable", assertThrows(IOException.class,
        () -> feed(new EventStreamResponse(new SseBench.Stream(StreamMeasure.delays())), refused, 1000)).getMessage());
  }

  @Test
  void theLastChunkEndsTheResponse() throws IOException {
    byte[] ended = concat(chunked(sseEvents(2, 3, false)), "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    SseBench.Stream stream = new SseBench.Stream(StreamMeasure.delays());

    assertFalse(feed(new EventStreamResponse(stream), ended, 5));
    assertEquals(3, stream.blocks.get());
  }

  @Test
  void aLineBreakIsFoundWhereverItStandsInAWord() {
    for (int length = 0; length < 20; length++) {
      for (int at = 0; at <= length; at++) {
        byte[] bytes = new byte[length + 3];
        Arrays.fill(bytes, (byte) 0x8a); // '\n' with its high bit set: no line break
        if (at < length) {
          bytes[at + 1] = '\n';
        }
        bytes[length + 2] = '\n'; // past the end searched
        assertEquals(at < length ? at + 1 : length + 1, SseBench.Stream.lineBreak(bytes, 1, length + 1),
            "length " + length + ", break at " + at);
      }
    }
  }

  /** Feeds {@code bytes} in reads of {@code split} bytes; false once the response said it ended. */
  private static boolean feed(EventStreamResponse response, byte[] bytes, int split) throws IOException {
    for (int at = 0; at < bytes.length; at += Math.min(split, bytes.length - at)) {
      if (!response.take(bytes, at, (int) Math.min(bytes.length, (long) at + split), READ_AT)) {
        return false;
      }
    }
    return true;
  }

  /** Every block was due {@code position} ms before it was read. */
  private static void assertDelays(Recorder recorder) {
    Histogram delays = recorder.getIntervalHistogram();
    assertEquals(BLOCKS, delays.getTotalCount());
    assertEquals(2_000, delays.getMinValue(), 1);
    assertEquals(1_000L * (BLOCKS + 1), delays.getMaxValue(), 32);
  }

  /** The due time of the block at {@code position}: {@code position} ms before the read. */
  private static long due(long position) {
    return READ_AT - TimeUnit.MILLISECONDS.toNanos(position);
  }

  /** The API's events of the blocks at {@code first...}, after its opening events unless {@code live}. */
  private static byte[] sseEvents(long first, int count, boolean live) {
    StringBuilder text = new StringBuilder();
    if (!live) {
      text.append("event: server-token\ndata: {\"server_token\":\"t\",\"max_position\":1}\n\n")
          .append("event: caught-up\ndata: {\"max_position\":1}\n\n");
    }
    for (long position = first; position < first + count; position++) {
      byte[] data = new byte[AppendWorkload.DATA_BYTES];
      ByteBuffer.wrap(data).putLong(due(position));
      text.append("id: ").append(position).append("\ndata: {\"position\":").append(position)
          .append(",\"feed_id\":\"f\",\"actor_id\":\"fan-writer\",\"sequence\":").append(position)
          .append(",\"timestamp\":1,\"data\":\"").append(Base64.getEncoder().encodeToString(data)).append("\"}\n\n");
      if (position % 7 == 0) {
        text.append(": heartbeat max_position=").append(position).append("\n\n");
      }
    }
    return text.toString().getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * A Durable Stream's events of {@code count} text blocks at positions 2..., ten to a data event,
   * the block {@code cut} (if not 0) a character short.
   */
  private static byte[] durableEvents(int count, int cut) {
    StringBuilder text = new StringBuilder("event: control\ndata:{\"streamNextOffset\":\"1\",\"upToDate\":true}\n\n");
    for (int first = 0; first < count; first += 10) {
      text.append("event: data\ndata:");
      for (int i = first; i < Math.min(count, first + 10); i++) {
        char[] block = new char[AppendWorkload.DATA_BYTES - (i == cut - 1 ? 1 : 0)];
        Arrays.fill(block, 'x');
        String hex = String.format("%016x", due(i + 2));
        hex.getChars(0, hex.length(), block, 0);
        text.append(block);
      }
      text.append("\n\nevent: control\ndata:{\"streamNextOffset\":\"").append(first + 11).append("\"}\n\n");
    }
    return text.toString().getBytes(StandardCharsets.US_ASCII);
  }

  /** A chunked 200 response whose body is {@code body}, in chunks of varying sizes as a server writes them. */
  private static byte[] chunked(byte[] body) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n"
        + "Transfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    int size = 1;
    for (int at = 0; at < body.length; at += size, size = size * 3 % 997 + 1) {
      int n = Math.min(size, body.length - at);
      out.writeBytes((Integer.toHexString(n) + (n % 2 == 0 ? ";x=y" : "") + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write(body, at, n);
      out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
    }
    return out.toByteArray();
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Arrays.stream(parts).forEach(out::writeBytes);
    return out.toByteArray();
  }
}
