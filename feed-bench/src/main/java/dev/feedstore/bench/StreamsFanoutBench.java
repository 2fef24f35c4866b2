package dev.feedstore.bench;

import dev.feedstore.core.StreamName;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import io.grpc.ManagedChannel;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
    ExecutorService readers = Executors.newFixedThreadPool(2);
    HttpClient http = HttpClient.newBuilder().executor(readers).build();
    URI stream = URI.create("http://127.0.0.1:" + server.httpPort() + "/v1/stream/" + NAME);
    try {
      HttpResponse<Void> created = http.send(HttpRequest.newBuilder(stream).header("Content-Type", "text/plain")
          .PUT(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
      if (created.statusCode() != 201) {
        throw new IllegalStateException("creating the stream was answered " + created.statusCode());
      }
      FanoutAppender appender = new FanoutAppender(SPACE, StreamName.of(NAME).feedId(0), Optional.empty(),
          FanoutAppender.TEXT, FeedSyncGrpc.newBlockingStub(appends));
      appender.append(1, 0);
      Recorder recorder = StreamMeasure.delays();
      URI live = URI.create(stream + "?offset=now&live=sse");
      HttpRequest request = HttpRequest.newBuilder(live).build();
      EventStreamReader.close(EventStreamReader.open(http, request, 20, Reader::new, recorder)); // warm reads up
      List<Reader> measured = EventStreamReader.open(http, request, options.fanoutStreams(), Reader::new, recorder);
      StreamMeasure.fanout(options, table, server, appender, measured.stream()
          .map(reader -> (LongSupplier) reader.blocks::get).toList(), recorder, "streams.fanout",
          measured.size() + " Durable Streams readers of one stream with live=sse (one HTTP/1.1 connection each)");
      EventStreamReader.ended(table, "streams.fanout", measured);
      EventStreamReader.close(measured);
    } finally {
      BenchServer.shutdown(appends);
      readers.shutdownNow();
    }
  }

  /**
   * One reader, parsing the event stream byte by byte: the lines of an {@code event: data} hold the
   * blocks' text, {@code 256} characters each; the first {@code event: control} says it is live.
   */
  private static final class Reader extends EventStreamReader {
    private static final byte[] EVENT_DATA = "event: data\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EVENT_CONTROL = "event: control\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DATA = "data:".getBytes(StandardCharsets.US_ASCII);

    /** The bytes of the current line read so far, while it may still be one of the prefixes. */
    private int lineRead;
    private boolean maybeEventData = true;
    private boolean maybeEventControl = true;
    private boolean maybeData = true;
    /** The last {@code event:} line named data. */
    private boolean inDataEvent;
    /** Inside a {@code data:} line of a data event: the characters of blocks read so far. */
    private long payload = -1;
    private long due;

    Reader(Recorder recorder) {
      super(recorder);
    }

    @Override
    void take(byte b, long now) {
      if (payload >= 0) {
        if (b == '\n') {
          payload = -1;
          lineRead = 0;
          resetPrefixes();
          return;
        }
        int at = (int) (payload % dev.feedstore.bench.AppendWorkload.DATA_BYTES);
        if (at < FanoutAppender.DUE_HEX) {
          due = (due << 4) | Character.digit(b, 16);
          if (at == FanoutAppender.DUE_HEX - 1) {
            block(due, now);
            due = 0;
          }
        }
        payload++;
        return;
      }
      maybeEventData &= lineRead < EVENT_DATA.length && EVENT_DATA[lineRead] == b;
      maybeEventControl &= lineRead < EVENT_CONTROL.length && EVENT_CONTROL[lineRead] == b;
      maybeData &= lineRead < DATA.length && DATA[lineRead] == b;
      lineRead++;
      if (maybeData && lineRead == DATA.length && inDataEvent) {
        payload = 0;
        return;
      }
      if (b == '\n') {
        if (maybeEventData && lineRead == EVENT_DATA.length) {
          inDataEvent = true;
        } else if (maybeEventControl && lineRead == EVENT_CONTROL.length) {
          inDataEvent = false;
          live.countDown();
        }
        lineRead = 0;
        resetPrefixes();
      }
    }

    private void resetPrefixes() {
      maybeEventData = true;
      maybeEventControl = true;
      maybeData = true;
    }

    @Override
    public void onComplete() {
      fail(new IllegalStateException("the server ended the live read"));
    }
  }
}
