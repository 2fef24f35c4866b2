package dev.feedstore.server.internal.http;

import static dev.feedstore.server.settings.ServerSettings.SSE_GZIP_LEVEL;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * One event stream's gzip encoding, the output an {@link SseWriter} writes through when {@code
 * sse-gzip-level} is above 0 and the client takes gzip ({@link #output}): a gzip member whose deflate stream is
 * flushed ({@code SYNC_FLUSH}) after every write, so each write's events can be decoded as soon as
 * they arrive, and finished with gzip's trailer by the last write. It holds a deflater, about 256
 * KiB of native memory, until the last write or {@link #release}.
 *
 * <p>Thread-safe: {@link SseWriter} writes one write at a time, and a client that leaves may
 * release it from another thread meanwhile; after that, every encoding is empty.
 */
final class SseGzip {
  /** gzip's member header: deflate, no flags, no time, no extra flags, operating system unknown. */
  private static final byte[] HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff};

  private final Deflater deflater;
  private final CRC32 crc = new CRC32();
  /** Guarded by this: the header was written. */
  private boolean started;
  /** Guarded by this: the deflater was ended. */
  private boolean released;

  /**
   * {@code plain}, the output of the event stream {@code exchange} answers, gzipped when {@code
   * sse-gzip-level} is above 0 and the client takes gzip: its headers say so at the first write
   * (so that a refusal before it goes as plain JSON), each write is encoded and flushed, the last
   * ends the member, and a client that leaves releases the deflater. {@code plain} itself otherwise.
   */
  static SseWriter.Output output(HttpExchange exchange, SseWriter.Output plain) {
    int level = exchange.core().settings().get(SSE_GZIP_LEVEL);
    if (level == 0 || !accepts(exchange.request().getHeaders().get(HttpHeader.ACCEPT_ENCODING))) {
      return plain;
    }
    SseGzip gzip = new SseGzip(level);
    Response response = exchange.response();
    return new SseWriter.Output() {
      @Override
      public void write(boolean last, ByteBuffer events, Callback done) {
        if (!response.isCommitted()) {
          response.getHeaders().put(HttpHeader.CONTENT_ENCODING, "gzip");
          response.getHeaders().put(HttpHeader.VARY, HttpHeader.ACCEPT_ENCODING.asString());
        }
        plain.write(last, last ? gzip.finish(events) : gzip.encode(events), done);
      }

      @Override
      public Callback completion() {
        return plain.completion();
      }

      @Override
      public void onFailure(Consumer<Throwable> gone) {
        plain.onFailure(failure -> {
          gzip.release();
          gone.accept(failure);
        });
      }

      @Override
      public void eventSent() {
        plain.eventSent();
      }

      @Override
      public void ended(String code) {
        plain.ended(code);
      }
    };
  }

  /** @param level deflate's level, 1 (fastest) to 9 (smallest) */
  SseGzip(int level) {
    this.deflater = new Deflater(level, true);
  }

  /**
   * Whether {@code acceptEncoding}, a request's {@code Accept-Encoding} (or null), takes gzip: it
   * names {@code gzip} (or {@code x-gzip}), or {@code *} and not gzip, with a quality above 0.
   */
  static boolean accepts(String acceptEncoding) {
    if (acceptEncoding == null) {
      return false;
    }
    Boolean wildcard = null;
    for (String item : acceptEncoding.split(",")) {
      String[] parts = item.split(";");
      String coding = parts[0].strip().toLowerCase(Locale.ROOT);
      boolean wanted = quality(parts) > 0;
      if (coding.equals("gzip") || coding.equals("x-gzip")) {
        return wanted;
      }
      if (coding.equals("*")) {
        wildcard = wanted;
      }
    }
    return Boolean.TRUE.equals(wildcard);
  }

  /** The {@code q} parameter among {@code parts} after the coding; 1 when absent, 0 when unreadable. */
  private static double quality(String[] parts) {
    for (int i = 1; i < parts.length; i++) {
      String parameter = parts[i].strip();
      if (parameter.length() > 2 && parameter.substring(0, 2).equalsIgnoreCase("q=")) {
        try {
          return Double.parseDouble(parameter.substring(2).strip());
        } catch (NumberFormatException e) {
          return 0;
        }
      }
    }
    return 1;
  }

  /** {@code events} encoded and flushed: the bytes that carry them to the client, whole. */
  synchronized ByteBuffer encode(ByteBuffer events) {
    return deflate(events, false);
  }

  /** {@code events} (or none, when null) encoded, then the end of the gzip member; releases the deflater. */
  synchronized ByteBuffer finish(ByteBuffer events) {
    return deflate(events == null ? ByteBuffer.allocate(0) : events, true);
  }

  /** Ends the deflater, once; what is encoded after is empty. */
  synchronized void release() {
    if (!released) {
      released = true;
      deflater.end();
    }
  }

  private ByteBuffer deflate(ByteBuffer events, boolean last) {
    if (released) {
      return ByteBuffer.allocate(0);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(events.remaining() / 2 + 64);
    if (!started) {
      started = true;
      out.writeBytes(HEADER);
    }
    crc.update(events.duplicate());
    deflater.setInput(events);
    if (last) {
      deflater.finish();
    }
    byte[] chunk = new byte[Math.max(256, events.remaining() + 64)];
    while (true) {
      // A SYNC_FLUSH that fills the chunk may have more to give; one that does not has given all.
      int length = deflater.deflate(chunk, 0, chunk.length, last ? Deflater.NO_FLUSH : Deflater.SYNC_FLUSH);
      out.write(chunk, 0, length);
      if (last ? deflater.finished() : length < chunk.length) {
        break;
      }
    }
    if (last) {
      littleEndian(out, crc.getValue());
      littleEndian(out, deflater.getBytesRead());
      release();
    }
    return ByteBuffer.wrap(out.toByteArray());
  }

  /** Writes the low 32 bits of {@code value}, least significant byte first, as gzip's trailer does. */
  private static void littleEndian(ByteArrayOutputStream out, long value) {
    for (int i = 0; i < 4; i++) {
      out.write((int) (value >>> (8 * i)) & 0xff);
    }
  }
}
