package dev.feedstore.bench;

import dev.feedstore.proto.v1.FeedSyncGrpc;
import io.grpc.ManagedChannel;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.LongSupplier;
import org.HdrHistogram.Recorder;

/**
 * Server-Sent Events streams on one space, over the server's HTTP API, as {@link WatchBench} measures
 * Watch streams: the idle cost (the server's heap after GC with {@code idleStreams} caught-up
 * streams open, minus before, per stream) and fan-out ({@code fanoutStreams} streams while blocks
 * are appended over gRPC at {@code fanoutRate} per second: the delay from when an append was due to
 * when each stream receives each block). The streams are java.net.http responses read as bytes: a
 * stream finds each block's {@code "data":"} and decodes only the due time at its start.
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
    ExecutorService readers = Executors.newFixedThreadPool(2);
    HttpClient http = HttpClient.newBuilder().executor(readers).build();
    try {
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
      readers.shutdownNow();
    }
  }

  private List<Stream> open(HttpClient http, BenchServer server, int count, Recorder recorder)
      throws InterruptedException {
    return EventStreamReader.open(http, HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.httpPort()
        + "/v1/spaces/" + SPACE + "/events?after=1")).build(), count, Stream::new, recorder);
  }

  private static void close(List<Stream> streams) {
    EventStreamReader.close(streams);
  }

  /** One event stream, read as bytes: counts blocks and records the delay of each; live at its caught-up event. */
  private static final class Stream extends EventStreamReader {
    private static final byte[] DATA = "\"data\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CAUGHT_UP = "event: caught-up".getBytes(StandardCharsets.US_ASCII);
    /** Twelve base64 characters hold the first nine bytes of a block's data: its due time and one more. */
    private static final int DUE_CHARS = 12;

    private int dataMatched;
    private int caughtUpMatched;
    private final byte[] due = new byte[DUE_CHARS];
    private int dueRead = -1;

    Stream(Recorder recorder) {
      super(recorder);
    }

    @Override
    void take(byte b, long now) {
      if (dueRead >= 0) {
        due[dueRead++] = b;
        if (dueRead == DUE_CHARS) {
          dueRead = -1;
          block(ByteBuffer.wrap(Base64.getDecoder().decode(due)).getLong(), now);
        }
        return;
      }
      dataMatched = step(DATA, dataMatched, b);
      if (dataMatched == DATA.length) {
        dataMatched = 0;
        dueRead = 0;
      }
      caughtUpMatched = step(CAUGHT_UP, caughtUpMatched, b);
      if (caughtUpMatched == CAUGHT_UP.length) {
        caughtUpMatched = 0;
        live.countDown();
      }
    }
  }
}
