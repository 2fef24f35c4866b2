package dev.feedstore.bench;

import dev.feedstore.proto.v1.FeedSyncGrpc;
import io.grpc.ManagedChannel;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
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
      Recorder recorder = new Recorder(TimeUnit.SECONDS.toMicros(60), 3);
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
        List<Throwable> ended = measured.stream().map(stream -> stream.failure.get())
            .filter(java.util.Objects::nonNull).toList();
        // A stream the server ended (it cuts a reader that took nothing for its idle timeout) is a
        // result, not a failure of the benchmark: its blocks count as undelivered.
        table.add("sse.fanout.streams_ended", ended.size(), "streams", ResultTable.Target.atMost(0, "streams"));
        if (!ended.isEmpty()) {
          Progress.say("sse.fanout: %d streams ended before the end, the first with %s", ended.size(), ended.get(0));
        }
      }
      close(streams);
    } finally {
      BenchServer.shutdown(appends);
      readers.shutdownNow();
    }
  }

  private List<Stream> open(HttpClient http, BenchServer server, int count, Recorder recorder)
      throws InterruptedException {
    List<Stream> streams = new ArrayList<>();
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.httpPort() + "/v1/spaces/"
        + SPACE + "/events?after=1")).build();
    for (int i = 0; i < count; i++) {
      Stream stream = new Stream(recorder);
      http.sendAsync(request, HttpResponse.BodyHandlers.fromSubscriber(stream)).whenComplete((response, failure) -> {
        if (failure != null) {
          stream.fail(failure);
        } else if (response.statusCode() != 200) {
          stream.fail(new IllegalStateException("the event stream was answered " + response.statusCode()));
        }
      });
      streams.add(stream);
    }
    for (Stream stream : streams) {
      if (!stream.caughtUp.await(60, TimeUnit.SECONDS) || stream.failure.get() != null) {
        throw new IllegalStateException("an event stream did not catch up", stream.failure.get());
      }
    }
    return streams;
  }

  private static void close(List<Stream> streams) {
    streams.forEach(Stream::cancel);
  }

  /** One event stream, read as bytes: counts blocks and records the delay of each. */
  private static final class Stream implements Flow.Subscriber<List<ByteBuffer>> {
    private static final byte[] DATA = "\"data\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CAUGHT_UP = "event: caught-up".getBytes(StandardCharsets.US_ASCII);
    /** Twelve base64 characters hold the first nine bytes of a block's data: its due time and one more. */
    private static final int DUE_CHARS = 12;

    final Recorder recorder;
    final CountDownLatch caughtUp = new CountDownLatch(1);
    final AtomicLong blocks = new AtomicLong();
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile Flow.Subscription subscription;
    // Confined to the subscriber's serialized callbacks.
    private int dataMatched;
    private int caughtUpMatched;
    private final byte[] due = new byte[DUE_CHARS];
    private int dueRead = -1;

    Stream(Recorder recorder) {
      this.recorder = recorder;
    }

    @Override
    public void onSubscribe(Flow.Subscription value) {
      subscription = value;
      value.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
      long now = System.nanoTime();
      for (ByteBuffer buffer : buffers) {
        while (buffer.hasRemaining()) {
          byte b = buffer.get();
          if (dueRead >= 0) {
            due[dueRead++] = b;
            if (dueRead == DUE_CHARS) {
              dueRead = -1;
              long at = ByteBuffer.wrap(Base64.getDecoder().decode(due)).getLong();
              if (at != 0) {
                recorder.recordValue(Math.max(0, TimeUnit.NANOSECONDS.toMicros(now - at)));
              }
              blocks.incrementAndGet();
            }
            continue;
          }
          dataMatched = step(DATA, dataMatched, b);
          if (dataMatched == DATA.length) {
            dataMatched = 0;
            dueRead = 0;
          }
          caughtUpMatched = step(CAUGHT_UP, caughtUpMatched, b);
          if (caughtUpMatched == CAUGHT_UP.length) {
            caughtUpMatched = 0;
            caughtUp.countDown();
          }
        }
      }
    }

    /** How much of {@code pattern} is matched after {@code b}, having matched {@code matched} before it. */
    private static int step(byte[] pattern, int matched, byte b) {
      if (pattern[matched] == b) {
        return matched + 1;
      }
      return pattern[0] == b ? 1 : 0;
    }

    @Override
    public void onError(Throwable t) {
      fail(t);
    }

    @Override
    public void onComplete() {
      caughtUp.countDown();
    }

    void fail(Throwable t) {
      failure.compareAndSet(null, t);
      caughtUp.countDown();
    }

    void cancel() {
      Flow.Subscription current = subscription;
      if (current != null) {
        current.cancel();
      }
    }
  }
}
