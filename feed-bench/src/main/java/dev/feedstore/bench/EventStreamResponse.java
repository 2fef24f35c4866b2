package dev.feedstore.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One event stream's HTTP/1.1 response as its bytes arrive, undone into its body: the head read up
 * to its blank line and checked (status 200, and whether the body is chunked), then the body handed
 * to the stream's {@link EventStreamReader} without the chunked framing, a run of bytes at a time.
 * Not thread-safe: confined to the client thread that reads the stream's connection.
 */
final class EventStreamResponse {
  /** The longest head taken: an event stream's is a few hundred bytes. */
  private static final int MAX_HEAD_BYTES = 16 * 1024;
  /** CR LF CR LF, the end of a head, as the last four bytes read. */
  private static final int BLANK_LINE = 0x0d0a0d0a;

  private enum State { HEAD, CHUNK_SIZE, CHUNK_EXTENSION, CHUNK, CHUNK_END, BODY, DONE }

  private final EventStreamReader reader;
  private final ByteArrayOutputStream head = new ByteArrayOutputStream();
  private State state = State.HEAD;
  /** The size of the chunk whose size line is being read, then what is left of it. */
  private long chunk;
  private boolean sizeDigits;
  /** The last four bytes of the head read so far. */
  private int headEnd;

  EventStreamResponse(EventStreamReader reader) {
    this.reader = reader;
  }

  /**
   * Takes the bytes {@code [from, to)} of the response, read at {@code now} ({@link System#nanoTime}).
   *
   * @return false once the response has ended (its last chunk came)
   * @throws IOException if the response is not a chunked or plain 200 event stream, or its body not
   *     what the reader expects
   */
  boolean take(byte[] bytes, int from, int to, long now) throws IOException {
    reader.readAt(now);
    int at = from;
    while (at < to && state != State.DONE) {
      switch (state) {
        case HEAD -> at = head(bytes, at, to);
        case BODY -> {
          reader.scan(bytes, at, to);
          at = to;
        }
        case CHUNK -> {
          int end = (int) Math.min(to, at + chunk);
          reader.scan(bytes, at, end);
          chunk -= end - at;
          at = end;
          if (chunk == 0) {
            state = State.CHUNK_END;
          }
        }
        default -> at = framing(bytes[at], at);
      }
    }
    reader.flush();
    return state != State.DONE;
  }

  /** Reads the head up to its blank line; returns where the body starts, or {@code to}. */
  private int head(byte[] bytes, int at, int to) throws IOException {
    while (at < to) {
      byte b = bytes[at++];
      head.write(b);
      headEnd = headEnd << 8 | (b & 0xff);
      if (head.size() > MAX_HEAD_BYTES) {
        throw new IOException("the event stream's head is over " + MAX_HEAD_BYTES + " bytes");
      }
      if (headEnd == BLANK_LINE) {
        begin(head.toString(StandardCharsets.ISO_8859_1));
        return at;
      }
    }
    return at;
  }

  private void begin(String text) throws IOException {
    String[] lines = text.split("\r\n");
    String[] status = lines[0].split(" ", 3);
    if (status.length < 2 || !status[0].startsWith("HTTP/1.")) {
      throw new IOException("the event stream's answer is not HTTP/1.x: " + lines[0]);
    }
    if (!status[1].equals("200")) {
      throw new IOException("the event stream was answered " + lines[0]);
    }
    boolean chunked = false;
    for (int i = 1; i < lines.length; i++) {
      String line = lines[i].toLowerCase(Locale.ROOT);
      if (line.startsWith("transfer-encoding:") && line.contains("chunked")) {
        chunked = true;
      }
    }
    state = chunked ? State.CHUNK_SIZE : State.BODY;
  }

  /** One byte of a chunk's size line or of the line break after its data; returns where the next starts. */
  private int framing(byte b, int at) throws IOException {
    switch (state) {
      case CHUNK_SIZE -> {
        int digit = Character.digit(b, 16);
        if (digit >= 0) {
          chunk = chunk << 4 | digit;
          sizeDigits = true;
        } else if (b == ';') {
          state = State.CHUNK_EXTENSION;
        } else if (b == '\n' && sizeDigits) {
          endOfSize();
        } else if (b != '\r') {
          throw new IOException("a chunk's size line holds byte " + b);
        }
      }
      case CHUNK_EXTENSION -> {
        if (b == '\n') {
          endOfSize();
        }
      }
      case CHUNK_END -> {
        if (b == '\n') {
          state = State.CHUNK_SIZE;
        } else if (b != '\r') {
          throw new IOException("a chunk's data runs past its size (byte " + b + ")");
        }
      }
      default -> throw new IllegalStateException(state.name());
    }
    return at + 1;
  }

  private void endOfSize() {
    sizeDigits = false;
    state = chunk == 0 ? State.DONE : State.CHUNK;
  }
}
