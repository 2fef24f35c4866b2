package dev.feedstore.bench;

import dev.feedstore.proto.v1.FeedSyncGrpc;
import io.grpc.ManagedChannel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
   * One event stream, scanned line by line without parsing its JSON: an {@code id:} line's position,
   * which must follow the last one's (a stream that skips or repeats a block fails), then in the
   * event's {@code data:} line the block's {@code "data":"}, whose first base64 characters hold the due
   * time; the rest of the data is stepped over and the quote that must close it checked. Live at its
   * {@code event: caught-up}.
   */
  static final class Stream extends EventStreamReader {
    private static final byte[] DATA = "\"data\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ID = "id: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CAUGHT_UP = "event: caught-up".getBytes(StandardCharsets.US_ASCII);
    /** The base64 characters of a block's data ({@link AppendWorkload#DATA_BYTES} bytes). */
    private static final int DATA_CHARS = 4 * ((AppendWorkload.DATA_BYTES + 2) / 3);
    /** Eleven base64 characters hold the first 66 bits of a block's data: its due time and two more. */
    private static final int DUE_CHARS = 11;

    private enum State { LINE_START, ID, EVENT, DATA_LINE, DUE, REST_OF_DATA, CLOSING_QUOTE, REST_OF_LINE }

    private State state = State.LINE_START;
    /** The bytes of the current line's prefix matched so far (ID, EVENT), or of {@code "data":"} (DATA_LINE). */
    private int matched;
    private long id;
    private long lastId = -1;
    /** The event being read began with an {@code id:} line: its data line is a block's. */
    private boolean blockEvent;
    private long due;
    /** Base64 characters of the data read or stepped over. */
    private int chars;

    Stream(Recorder recorder) {
      super(recorder);
    }

    @Override
    void scan(byte[] bytes, int from, int to) throws IOException {
      int at = from;
      while (at < to) {
        byte b = bytes[at];
        switch (state) {
          case LINE_START -> {
            state = b == 'i' ? State.ID : b == 'e' ? State.EVENT : b == 'd' && blockEvent ? State.DATA_LINE
                : State.REST_OF_LINE;
            matched = 0;
            if (b == '\n') {
              state = State.LINE_START;
            } else if (state != State.DATA_LINE) {
              continue; // the line's first byte is the prefix's
            }
          }
          case ID -> {
            if (matched < ID.length) {
              matched = ID[matched] == b ? matched + 1 : -1;
              if (matched < 0) {
                state = State.REST_OF_LINE;
                continue;
              }
            } else if (b == '\n') {
              position(id);
              id = 0;
              blockEvent = true;
              state = State.LINE_START;
            } else {
              id = id * 10 + digit(b);
            }
          }
          case EVENT -> {
            if (b == '\n') {
              blockEvent = false;
              if (matched == CAUGHT_UP.length) {
                live.countDown();
              }
              state = State.LINE_START;
            } else if (matched >= 0 && matched < CAUGHT_UP.length && CAUGHT_UP[matched] == b) {
              matched++;
            } else {
              matched = -1;
            }
          }
          case DATA_LINE -> {
            at = findData(bytes, at, to);
            continue;
          }
          case DUE -> {
            int value = base64(b);
            due = chars < DUE_CHARS - 1 ? due << 6 | value : due << 4 | value >> 2;
            if (++chars == DUE_CHARS) {
              state = State.REST_OF_DATA;
            }
          }
          case REST_OF_DATA -> {
            int step = Math.min(to - at, DATA_CHARS - chars);
            chars += step;
            at += step;
            if (chars == DATA_CHARS) {
              state = State.CLOSING_QUOTE;
            }
            continue;
          }
          case CLOSING_QUOTE -> {
            if (b != '"') {
              throw new IOException("a block's data is not " + DATA_CHARS + " base64 characters (position " + lastId
                  + ")");
            }
            block(due);
            blockEvent = false;
            state = State.REST_OF_LINE;
          }
          case REST_OF_LINE -> {
            while (at < to && bytes[at] != '\n') {
              at++;
            }
            if (at < to) {
              state = State.LINE_START;
            } else {
              continue;
            }
          }
          default -> throw new IllegalStateException(state.name());
        }
        at++;
      }
    }

    /** Steps through a block's JSON to the start of its {@code "data"} value; returns where it stopped. */
    private int findData(byte[] bytes, int at, int to) throws IOException {
      while (at < to) {
        byte b = bytes[at++];
        if (b == '\n') {
          throw new IOException("a block's event without its \"data\" (position " + lastId + ")");
        }
        matched = step(DATA, matched, b);
        if (matched == DATA.length) {
          state = State.DUE;
          due = 0;
          chars = 0;
          return at;
        }
      }
      return at;
    }

    /** A block event's {@code id}: the position after the last. */
    private void position(long position) throws IOException {
      if (lastId >= 0 && position != lastId + 1) {
        throw new IOException("the stream went from position " + lastId + " to " + position);
      }
      lastId = position;
    }

    private static int digit(byte b) throws IOException {
      if (b < '0' || b > '9') {
        throw new IOException("an id holds byte " + b);
      }
      return b - '0';
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
