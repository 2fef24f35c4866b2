package dev.feedstore.bench;

import dev.feedstore.proto.v1.FeedSyncGrpc;
import io.grpc.ManagedChannel;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;
import org.HdrHistogram.Recorder;

/**
 * Server-Sent Events streams on one space, over the server's HTTP API, as {@link WatchBench} measures
 * Watch streams: the idle cost (the server's heap after GC with {@code idleStreams} caught-up
 * streams open, minus before, per stream) and fan-out ({@code fanoutStreams} streams while blocks
 * are appended over gRPC at {@code fanoutRate} per second: the delay from when an append was due to
 * when each stream receives each block). The streams are read by {@link EventStreamClient} as
 * bytes: a stream finds each block's {@code "data":"} and decodes only the due time at its start.
 */
final class SseBench {
  private static final String SPACE = "sse";
  private final BenchOptions options;
  private final ResultTable table;

  SseBench(BenchOptions options, ResultTable table) {
    this.options = options;
    this.table = table;
  }

  void run(boolean idle, boolean fanout) throws Exception {
    BenchServer server = options.server().reopen(options.dir().resolve("sse-authority.db"));
    ManagedChannel appends = server.channel();
    try (EventStreamClient http = new EventStreamClient()) {
      FanoutAppender appender = new FanoutAppender(SPACE, FeedSyncGrpc.newBlockingStub(appends));
      appender.append(1, 0); // the space exists, with one block at position 1
      Recorder recorder = StreamMeasure.delays();
      close(open(http, server, 20, recorder)); // warm the server's HTTP and event paths up
      long before = server.usedHeapAfterGc();
      int count = Math.max(idle ? options.idleStreams() : 0, fanout ? options.fanoutStreams() : 0);
      List<Stream> streams = open(http, server, count, recorder);
      if (idle) {
        StreamMeasure.idle(table, server, "sse.idle", options.idleStreams(), before,
            "Server-Sent Events streams (one HTTP/1.1 connection each)");
      }
      if (fanout) {
        List<Stream> measured = streams.subList(0, options.fanoutStreams());
        StreamMeasure.fanout(options, table, server, appender, measured.stream()
            .map(stream -> (LongSupplier) stream.blocks::get).toList(), recorder, "sse.fanout",
            measured.size() + " Server-Sent Events streams (one HTTP/1.1 connection each)");
        EventStreamReader.ended(table, "sse.fanout", measured);
      }
      close(streams);
    } finally {
      BenchServer.shutdown(appends);
    }
  }

  private List<Stream> open(EventStreamClient http, BenchServer server, int count, Recorder recorder)
      throws InterruptedException {
    return http.open(server.httpPort(), "/v1/spaces/" + SPACE + "/events?after=1", count, () -> new Stream(recorder));
  }

  private static void close(List<Stream> streams) {
    EventStreamReader.close(streams);
  }

  /**
   * One event stream, taken line by line without parsing its JSON: an {@code id:} line's position,
   * which must follow the last one's (a stream that skips or repeats a block fails), then the
   * event's {@code data:} line, the block's JSON, which ends with its {@code "data"} (the field the
   * server writes last): its {@value #DATA_CHARS} base64 characters must stand between {@code
   * "data":"} and the closing {@code "}}, and the first of them hold the due time. Live at its
   * {@code event: caught-up}. The bytes are only searched for line breaks, eight at a time; a line
   * cut between two reads is carried over.
   */
  static final class Stream extends EventStreamReader {
    private static final byte[] DATA = "\"data\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ID = "id: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DATA_LINE = "data: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CAUGHT_UP = "event: caught-up".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EVENT = "event:".getBytes(StandardCharsets.US_ASCII);
    /** The base64 characters of a block's data ({@link AppendWorkload#DATA_BYTES} bytes). */
    private static final int DATA_CHARS = 4 * ((AppendWorkload.DATA_BYTES + 2) / 3);
    /** Eleven base64 characters hold the first 66 bits of a block's data: its due time and two more. */
    private static final int DUE_CHARS = 11;
    /** The longest line carried from one read to the next: a block event's is about 600 bytes. */
    private static final int MAX_LINE_BYTES = 64 * 1024;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long LINE_BREAKS = 0x0a0a0a0a0a0a0a0aL;
    private static final long LOW_BITS = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;

    /** The start of a line the last read cut, and how many of its bytes it holds. */
    private byte[] carried = new byte[1024];
    private int carriedBytes;
    private long lastId = -1;
    /** The event being read began with an {@code id:} line: its data line is a block's. */
    private boolean blockEvent;

    Stream(Recorder recorder) {
      super(recorder);
    }

    @Override
    void scan(byte[] bytes, int from, int to) throws IOException {
      int at = from;
      while (at < to) {
        int end = lineBreak(bytes, at, to);
        if (end == to) {
          carry(bytes, at, to);
          return;
        }
        if (carriedBytes > 0) {
          carry(bytes, at, end);
          line(carried, 0, carriedBytes);
          carriedBytes = 0;
        } else {
          line(bytes, at, end);
        }
        at = end + 1;
      }
    }

    /**
     * Where the first line break of {@code [from, to)} is, or {@code to}: eight bytes at a time, as
     * a long in which a byte that was {@code '\n'} is the lowest zero after the XOR.
     */
    static int lineBreak(byte[] bytes, int from, int to) {
      int at = from;
      for (; at + Long.BYTES <= to; at += Long.BYTES) {
        long word = (long) LONGS.get(bytes, at) ^ LINE_BREAKS;
        long zero = (word - LOW_BITS) & ~word & HIGH_BITS;
        if (zero != 0) {
          return at + (Long.numberOfTrailingZeros(zero) >>> 3);
        }
      }
      while (at < to && bytes[at] != '\n') {
        at++;
      }
      return at;
    }

    private void carry(byte[] bytes, int from, int to) throws IOException {
      int length = carriedBytes + to - from;
      if (length > MAX_LINE_BYTES) {
        throw new IOException("a line of the event stream is over " + MAX_LINE_BYTES + " bytes");
      }
      if (length > carried.length) {
        carried = Arrays.copyOf(carried, Math.max(length, 2 * carried.length));
      }
      System.arraycopy(bytes, from, carried, carriedBytes, to - from);
      carriedBytes = length;
    }

    /** One line, {@code [from, to)} of {@code bytes}, without its line break. */
    private void line(byte[] bytes, int from, int to) throws IOException {
      if (blockEvent) {
        block(bytes, from, to);
        blockEvent = false;
      } else if (startsWith(bytes, from, to, ID)) {
        position(bytes, from + ID.length, to);
        blockEvent = true;
      } else if (startsWith(bytes, from, to, EVENT) && to - from == CAUGHT_UP.length
          && startsWith(bytes, from, to, CAUGHT_UP)) {
        live.countDown();
      }
    }

    /** The data line of a block's event: {@code data: {...,"data":"BASE64"}}. */
    private void block(byte[] bytes, int from, int to) throws IOException {
      int value = to - 2 - DATA_CHARS;
      if (!startsWith(bytes, from, to, DATA_LINE) || value - DATA.length < from + DATA_LINE.length
          || !startsWith(bytes, value - DATA.length, to, DATA) || bytes[to - 2] != '"' || bytes[to - 1] != '}') {
        throw new IOException("the event of position " + lastId + " is not a block whose data is "
            + DATA_CHARS + " base64 characters, last: " + new String(bytes, from, Math.min(to - from, 120),
            StandardCharsets.US_ASCII) + "...");
      }
      long due = 0;
      for (int i = 0; i < DUE_CHARS - 1; i++) {
        due = due << 6 | base64(bytes[value + i]);
      }
      block(due << 4 | base64(bytes[value + DUE_CHARS - 1]) >> 2);
    }

    /** A block event's {@code id}: the position after the last. */
    private void position(byte[] bytes, int from, int to) throws IOException {
      long position = 0;
      for (int i = from; i < to; i++) {
        if (bytes[i] < '0' || bytes[i] > '9' || i - from > 18) {
          throw new IOException("an event's id is not a position: "
              + new String(bytes, from, Math.min(to - from, 40), StandardCharsets.US_ASCII));
        }
        position = position * 10 + bytes[i] - '0';
      }
      if (lastId >= 0 && position != lastId + 1) {
        throw new IOException("the stream went from position " + lastId + " to " + position);
      }
      lastId = position;
    }

    private static boolean startsWith(byte[] bytes, int from, int to, byte[] prefix) {
      if (to - from < prefix.length) {
        return false;
      }
      for (int i = 0; i < prefix.length; i++) {
        if (bytes[from + i] != prefix[i]) {
          return false;
        }
      }
      return true;
    }

    private static int base64(byte b) throws IOException {
      if (b >= 'A' && b <= 'Z') {
        return b - 'A';
      } else if (b >= 'a' && b <= 'z') {
        return b - 'a' + 26;
      } else if (b >= '0' && b <= '9') {
        return b - '0' + 52;
      } else if (b == '+') {
        return 62;
      } else if (b == '/') {
        return 63;
      }
      throw new IOException("a block's data holds byte " + b + ", not base64");
    }
  }
}
