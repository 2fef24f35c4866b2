package dev.feedstore.bench;

import dev.feedstore.core.StreamName;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import io.grpc.ManagedChannel;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.LongSupplier;
import org.HdrHistogram.Recorder;

/**
 * The fan-out case over Durable Streams: {@code fanoutStreams} readers of one {@code text/plain}
 * stream with {@code live=sse} (one HTTP/1.1 connection each, from {@code offset=now}), while blocks
 * are written into the stream's feed over gRPC at {@code fanoutRate} per second in batches of {@code
 * fanoutBatch}, as {@link SseBench} measures the API's event streams: the delay from when an append
 * was due to when each reader receives each block. A block's text starts with its due time in hex;
 * a data event holds a batch's blocks one after another on one {@code data:} line, so a reader counts
 * {@code 256} characters a block and decodes only the due time at the start of each.
 */
final class StreamsFanoutBench {
  private static final String SPACE = "streams";
  private static final String NAME = "fanout";

  private final BenchOptions options;
  private final ResultTable table;

  StreamsFanoutBench(BenchOptions options, ResultTable table) {
    this.options = options;
    this.table = table;
  }

  void run() throws Exception {
    BenchServer server = options.server().reopen(options.dir().resolve("streams-fanout-authority.db"));
    ManagedChannel appends = server.channel();
    String path = "/v1/stream/" + NAME;
    try (EventStreamClient client = new EventStreamClient()) {
      HttpClient http = HttpClient.newHttpClient();
      HttpResponse<Void> created = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.httpPort()
          + path)).header("Content-Type", "text/plain").PUT(HttpRequest.BodyPublishers.noBody()).build(),
          HttpResponse.BodyHandlers.discarding());
      if (created.statusCode() != 201) {
        throw new IllegalStateException("creating the stream was answered " + created.statusCode());
      }
      FanoutAppender appender = new FanoutAppender(SPACE, StreamName.of(NAME).feedId(0), true,
          FeedSyncGrpc.newBlockingStub(appends));
      appender.append(1, 0);
      Recorder recorder = StreamMeasure.delays();
      String live = path + "?offset=now&live=sse";
      EventStreamReader.close(client.open(server.httpPort(), live, 20, () -> new Reader(recorder))); // warm reads up
      List<Reader> measured = client.open(server.httpPort(), live, options.fanoutStreams(), () -> new Reader(recorder));
      StreamMeasure.fanout(options, table, server, appender, measured.stream()
          .map(reader -> (LongSupplier) reader.blocks::get).toList(), recorder, "streams.fanout",
          measured.size() + " Durable Streams readers of one stream with live=sse (one HTTP/1.1 connection each)");
      EventStreamReader.ended(table, "streams.fanout", measured);
      EventStreamReader.close(measured);
    } finally {
      BenchServer.shutdown(appends);
    }
  }

  /**
   * One reader, scanning the event stream line by line: the {@code data:} line of an {@code event:
   * data} holds the blocks' text, {@value AppendWorkload#DATA_BYTES} characters each, of which only
   * the due time at the start is read (each must be hexadecimal, so a block cut short shows) and
   * the rest stepped over; the line must end at a block's end. The first {@code event: control}
   * says it is live.
   */
  static final class Reader extends EventStreamReader {
    private static final byte[] EVENT_DATA = "event: data".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EVENT_CONTROL = "event: control".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DATA = "data:".getBytes(StandardCharsets.US_ASCII);

    private enum State { LINE_START, EVENT, DATA_PREFIX, PAYLOAD, REST_OF_LINE }

    private State state = State.LINE_START;
    /** The bytes of the line's prefix matched so far; -1 once it is not the prefix. */
    private int matched;
    /** Which {@code event:} line is being matched: data's or control's, told apart at their eighth byte. */
    private byte[] event;
    /** The last {@code event:} line named data. */
    private boolean inDataEvent;
    /** Inside a {@code data:} line of a data event: the characters of blocks read or stepped over. */
    private long payload;
    private long due;

    Reader(Recorder recorder) {
      super(recorder);
    }

    @Override
    void scan(byte[] bytes, int from, int to) throws IOException {
      int at = from;
      while (at < to) {
        byte b = bytes[at];
        switch (state) {
          case LINE_START -> {
            matched = 0;
            event = EVENT_DATA;
            state = b == 'e' ? State.EVENT : b == 'd' && inDataEvent ? State.DATA_PREFIX : State.REST_OF_LINE;
            continue;
          }
          case EVENT -> {
            if (b == '\n') {
              eventLine();
              state = State.LINE_START;
            } else if (matched == EVENT_DATA.length - 4 && b == EVENT_CONTROL[matched]) {
              event = EVENT_CONTROL;
              matched++;
            } else if (matched >= 0 && matched < event.length && event[matched] == b) {
              matched++;
            } else {
              matched = -1;
            }
          }
          case DATA_PREFIX -> {
            if (DATA[matched] != b) {
              state = State.REST_OF_LINE;
              continue;
            }
            if (++matched == DATA.length) {
              state = State.PAYLOAD;
              payload = 0;
              due = 0;
            }
          }
          case PAYLOAD -> {
            int at256 = (int) (payload % AppendWorkload.DATA_BYTES);
            if (at256 >= FanoutAppender.DUE_HEX) {
              int step = (int) Math.min(to - at, AppendWorkload.DATA_BYTES - at256);
              payload += step;
              at += step;
              continue;
            }
            if (b == '\n' && at256 == 0) {
              state = State.LINE_START;
            } else {
              int digit = Character.digit(b, 16);
              if (digit < 0) {
                throw new IOException("a block's text does not start with its due time in hexadecimal (byte " + b
                    + " at character " + payload + " of a data line)");
              }
              due = due << 4 | digit;
              payload++;
              if (at256 == FanoutAppender.DUE_HEX - 1) {
                block(due);
                due = 0;
              }
            }
          }
          case REST_OF_LINE -> {
            while (at < to && bytes[at] != '\n') {
              at++;
            }
            if (at == to) {
              continue;
            }
            state = State.LINE_START;
          }
          default -> throw new IllegalStateException(state.name());
        }
        at++;
      }
    }

    /** An {@code event:} line ended: it names the event whose data lines follow. */
    private void eventLine() {
      inDataEvent = matched == EVENT_DATA.length && event == EVENT_DATA;
      if (matched == EVENT_CONTROL.length && event == EVENT_CONTROL) {
        live.countDown();
      }
    }
  }
}
