package dev.feedstore.server.internal.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * SseGzip on its own: which Accept-Encoding values take gzip, and that each encoded write inflates
 * whole before the next is written, the last ending a valid gzip member.
 */
class SseGzipTest {
  @Test
  void gzipIsTakenWhenNamedOrCoveredByAStarWithAQualityAboveZero() {
    for (String taken : new String[] {"gzip", "GZIP", "deflate, gzip", "gzip;q=0.5", "gzip ; q=1", "x-gzip",
        "br, *", "*;q=0.1"}) {
      assertTrue(SseGzip.accepts(taken), taken);
    }
    for (String refused : new String[] {"identity", "deflate, br", "gzip;q=0", "gzip;q=0.0, *", "*;q=0", "",
        "gzip;q=none"}) {
      assertFalse(SseGzip.accepts(refused), refused);
    }
    assertFalse(SseGzip.accepts(null));
  }

  @Test
  void eachWriteInflatesWholeBeforeTheNextAndTheLastEndsTheMember() throws IOException {
    SseGzip gzip = new SseGzip(6);
    PipedOutputStream wire = new PipedOutputStream();
    PipedInputStream received = new PipedInputStream(wire, 1 << 16);
    String first = "id: 1\ndata: {\"text\":\"hello\"}\n\n";
    wire.write(bytes(gzip.encode(ByteBuffer.wrap(first.getBytes(StandardCharsets.UTF_8)))));
    InputStream inflated = new GZIPInputStream(received);

    assertEquals(first, read(inflated, first.length()), "all of the first write, with nothing after it on the wire");
    String second = "id: 2\ndata: {\"text\":\"hello again\"}\n\n";
    wire.write(bytes(gzip.encode(ByteBuffer.wrap(second.getBytes(StandardCharsets.UTF_8)))));
    assertEquals(second, read(inflated, second.length()));
    String last = "event: error\ndata: {}\n\n";
    wire.write(bytes(gzip.finish(ByteBuffer.wrap(last.getBytes(StandardCharsets.UTF_8)))));
    wire.close();
    assertEquals(last, new String(inflated.readAllBytes(), StandardCharsets.UTF_8), "and the trailer checks");
    assertEquals(0, gzip.encode(ByteBuffer.wrap(new byte[] {1})).remaining(), "nothing after the end");
  }

  private static byte[] bytes(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.get(bytes);
    return bytes;
  }

  /** Reads exactly {@code length} bytes, each read taking what has arrived. */
  private static String read(InputStream in, int length) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] chunk = new byte[length];
    while (out.size() < length) {
      int n = in.read(chunk, 0, length - out.size());
      if (n < 0) {
        break;
      }
      out.write(chunk, 0, n);
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
