package dev.feedstore.bench;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import dev.feedstore.core.FeedId;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.AppendResponse;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.WatchRequest;
import io.grpc.CallOptions;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Watch streams on one space. Idle cost: the server's heap after GC with {@code idleStreams} open
 * and caught-up streams, minus before, per stream. Fan-out: {@code fanoutStreams} streams while
 * blocks are appended at {@code fanoutRate} per second in batches of {@code fanoutBatch}: the time
 * from when an append was due to when each stream receives its blocks, and the server's heap.
 */
final class WatchBench {
  private static final String SPACE = "fan";
  private static final int CHANNELS = 4;
  private final BenchOptions options;
  private final ResultTable table;

  WatchBench(BenchOptions options, ResultTable table) {
    this.options = options;
    this.table = table;
  }

  /**
   * Watch with events left as bytes: the watchers of the benchmark run beside the server on the
   * same two cores, so they read only what they time (the due time in each block's first bytes)
   * instead of decoding every event into objects.
   */
  private static final MethodDescriptor<WatchRequest, byte[]> RAW_WATCH = FeedSyncGrpc.getWatchMethod()
      .toBuilder(ProtoUtils.marshaller(WatchRequest.getDefaultInstance()), new MethodDescriptor.Marshaller<byte[]>() {
        @Override
        public InputStream stream(byte[] value) {
          return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
          try {
            return stream.readAllBytes();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      })
      .build();

  /** One Watch stream of the benchmark, counting blocks and recording their delivery delay. */
  private static final class Watcher implements StreamObserver<byte[]> {
    final Recorder recorder;
    final CountDownLatch caughtUp = new CountDownLatch(1);
    final AtomicLong blocks = new AtomicLong();
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    Context.CancellableContext context;

    Watcher(Recorder recorder) {
      this.recorder = recorder;
    }

    @Override
    public void onNext(byte[] event) {
      long now = System.nanoTime();
      try {
        CodedInputStream in = CodedInputStream.newInstance(event);
        while (!in.isAtEnd()) {
          int tag = in.readTag();
          switch (WireFormat.getTagFieldNumber(tag)) {
            case 4 -> readBatch(in, now); // WatchEvent.blocks
            case 5 -> { // WatchEvent.caught_up
              in.skipField(tag);
              caughtUp.countDown();
            }
            default -> in.skipField(tag);
          }
        }
      } catch (IOException e) {
        failure.compareAndSet(null, e);
      }
    }

    /** A BlockBatch: for each Block, the due time in the first 8 bytes of its data. */
    private void readBatch(CodedInputStream in, long now) throws IOException {
      int batch = in.pushLimit(in.readRawVarint32());
      while (!in.isAtEnd()) {
        int tag = in.readTag();
        if (WireFormat.getTagFieldNumber(tag) != 1) {
          in.skipField(tag);
          continue;
        }
        int block = in.pushLimit(in.readRawVarint32());
        while (!in.isAtEnd()) {
          int field = in.readTag();
          if (WireFormat.getTagFieldNumber(field) == 7) { // Block.data
            int length = in.readRawVarint32();
            long due = length >= 8 ? Long.reverseBytes(in.readRawLittleEndian64()) : 0;
            in.skipRawBytes(length >= 8 ? length - 8 : length);
            if (due != 0) {
              recorder.recordValue(Math.max(0, TimeUnit.NANOSECONDS.toMicros(now - due)));
            }
          } else {
            in.skipField(field);
          }
        }
        in.popLimit(block);
        blocks.incrementAndGet();
      }
      in.popLimit(batch);
    }

    @Override
    public void onError(Throwable t) {
      failure.compareAndSet(null, t);
      caughtUp.countDown();
    }

    @Override
    public void onCompleted() {
      caughtUp.countDown();
    }
  }

  void run(boolean idle, boolean fanout) throws Exception {
    {
      BenchServer server = options.server().reopen(options.dir().resolve("watch-authority.db"));
      List<ManagedChannel> channels = new ArrayList<>();
      for (int i = 0; i < CHANNELS; i++) {
        channels.add(server.directChannel());
      }
      try {
        ManagedChannel appends = server.channel();
        channels.add(appends); // shut down with the others
        FeedSyncGrpc.FeedSyncBlockingStub blocking = FeedSyncGrpc.newBlockingStub(appends);
        Appender appender = new Appender(blocking);
        appender.append(1, 0); // the space exists, with one block at position 1
        Recorder recorder = new Recorder(TimeUnit.SECONDS.toMicros(60), 3);
        // Warm the server's watch path up, then measure its heap with no stream open.
        close(open(channels, 20, recorder));
        long before = server.usedHeapAfterGc();
        int streams = Math.max(idle ? options.idleStreams() : 0, fanout ? options.fanoutStreams() : 0);
        List<Watcher> watchers = open(channels, streams, recorder);
        if (idle) {
          long after = server.usedHeapAfterGc();
          double perStream = (after - before) / (double) options.idleStreams() / 1024.0;
          table.add("idle.heap_per_stream", perStream, "KiB", ResultTable.Target.atMost(50, "KiB"));
          table.add("idle.server_heap", Heap.mib(after), "MiB");
          table.note("idle.*: server heap after GC with " + options.idleStreams() + " caught-up Watch streams"
              + " (over " + CHANNELS + " connections) minus before, per stream; and in all");
          Progress.say("idle: %d streams, server heap %.1f -> %.1f MiB, %.1f KiB per stream", options.idleStreams(),
              Heap.mib(before), Heap.mib(after), perStream);
        }
        if (fanout) {
          fanout(server, appender, watchers.subList(0, options.fanoutStreams()), recorder);
        }
        close(watchers);
      } finally {
        channels.forEach(BenchServer::shutdown);
      }
    }
  }

  private void fanout(BenchServer server, Appender appender, List<Watcher> watchers, Recorder recorder)
      throws Exception {
    int batch = options.fanoutBatch();
    long period = TimeUnit.SECONDS.toNanos(1) * batch / options.fanoutRate();
    ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
    long[] counts = watchers.stream().mapToLong(w -> w.blocks.get()).toArray();
    long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
    long warmupTicks = (long) (options.fanoutWarmupSeconds() * 1e9 / period);
    long ticks = warmupTicks + (long) (options.fanoutSeconds() * 1e9 / period);
    AtomicLong tick = new AtomicLong();
    long[] cpuAtStart = new long[3];
    CountDownLatch sent = new CountDownLatch(1);
    ticker.scheduleAtFixedRate(() -> {
      long k = tick.getAndIncrement();
      if (k >= ticks) {
        sent.countDown();
        return;
      }
      if (k == warmupTicks) {
        recorder.reset();
        appender.acks.reset();
        server.resetPeaks();
        cpuAtStart[0] = server.cpuNanos();
        cpuAtStart[1] = Heap.processCpuNanos();
        cpuAtStart[2] = System.nanoTime();
      }
      appender.appendAsync(batch, start + k * period);
    }, start - System.nanoTime(), period, TimeUnit.NANOSECONDS);
    sent.await();
    ticker.shutdown();
    long expected = ticks * batch;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    long missing;
    do {
      missing = 0;
      for (int i = 0; i < watchers.size(); i++) {
        missing += Math.max(0, expected - (watchers.get(i).blocks.get() - counts[i]));
      }
      if (missing > 0) {
        Thread.sleep(20);
      }
    } while (missing > 0 && System.nanoTime() < deadline);
    Histogram histogram = recorder.getIntervalHistogram();
    Histogram acks = appender.acks.getIntervalHistogram();
    double elapsed = (System.nanoTime() - cpuAtStart[2]) / 1e9;
    double serverCores = (server.cpuNanos() - cpuAtStart[0]) / 1e9 / elapsed;
    double clientCores = (Heap.processCpuNanos() - cpuAtStart[1]) / 1e9 / elapsed;
    long[] peaks = server.peaks();
    long heapAfter = server.usedHeapAfterGc();
    if (appender.failures.get() > 0) {
      throw new IllegalStateException(appender.failures.get() + " appends failed during fan-out");
    }
    table.add("fanout.p50", histogram.getValueAtPercentile(50) / 1000.0, "ms");
    table.add("fanout.p99", histogram.getValueAtPercentile(99) / 1000.0, "ms", ResultTable.Target.atMost(50, "ms"));
    table.add("fanout.p99.9", histogram.getValueAtPercentile(99.9) / 1000.0, "ms");
    table.add("fanout.max", histogram.getMaxValue() / 1000.0, "ms");
    table.add("fanout.undelivered", missing, "blocks", ResultTable.Target.atMost(0, "blocks"));
    table.add("fanout.server_heap_after_gc", Heap.mib(heapAfter), "MiB");
    table.add("fanout.server_heap_peak_after_gc", Heap.mib(peaks[1]), "MiB");
    table.add("fanout.server_heap_peak_used", Heap.mib(peaks[0]), "MiB");
    table.note("fanout.*: " + watchers.size() + " Watch streams (over " + CHANNELS + " connections) on one space while"
        + " one client appends " + options.fanoutRate() + " blocks/s in batches of " + batch + " (" + options.fanoutSeconds()
        + " s measured after " + options.fanoutWarmupSeconds() + " s); delay from when an append was due to when each"
        + " stream receives its blocks (" + histogram.getTotalCount() + " deliveries); server heap after GC at the end"
        + " with the streams open, and its peaks while measuring");
    Progress.say("fan-out: p50 %.1f ms, p99 %.1f ms, max %.1f ms, %d undelivered, server heap %.1f MiB (peak after GC"
            + " %.1f); CPU while measuring: server %.2f cores, watchers' JVM %.2f cores; append answered p50 %.1f ms,"
            + " p99 %.1f ms after it was due",
        histogram.getValueAtPercentile(50) / 1000.0, histogram.getValueAtPercentile(99) / 1000.0,
        histogram.getMaxValue() / 1000.0, missing, Heap.mib(heapAfter), Heap.mib(peaks[1]), serverCores, clientCores,
        acks.getValueAtPercentile(50) / 1000.0, acks.getValueAtPercentile(99) / 1000.0);
  }

  private static List<Watcher> open(List<ManagedChannel> channels, int count, Recorder recorder)
      throws InterruptedException {
    List<Watcher> watchers = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Watcher watcher = new Watcher(recorder);
      watcher.context = Context.current().withCancellation();
      ManagedChannel channel = channels.get(i % CHANNELS);
      WatchRequest request = WatchRequest.newBuilder().setSpaceId(SPACE).setCursor(1).build();
      watcher.context.run(() -> ClientCalls.asyncServerStreamingCall(
          channel.newCall(RAW_WATCH, CallOptions.DEFAULT), request, watcher));
      watchers.add(watcher);
    }
    for (Watcher watcher : watchers) {
      if (!watcher.caughtUp.await(60, TimeUnit.SECONDS) || watcher.failure.get() != null) {
        throw new IllegalStateException("a Watch stream did not catch up", watcher.failure.get());
      }
    }
    return watchers;
  }

  private static void close(List<Watcher> watchers) {
    watchers.forEach(w -> w.context.cancel(null));
  }

  /** Appends blocks of one feed, carrying the time they were due in their first 8 bytes. */
  private static final class Appender {
    private final FeedSyncGrpc.FeedSyncBlockingStub blocking;
    private final FeedSyncGrpc.FeedSyncStub async;
    private final String feed = FeedId.generate().value();
    private final AtomicLong failures = new AtomicLong();
    /** From when an append was due to its answer, in microseconds. */
    private final Recorder acks = new Recorder(TimeUnit.SECONDS.toMicros(60), 3);
    private long sequence;

    Appender(FeedSyncGrpc.FeedSyncBlockingStub blocking) {
      this.blocking = blocking;
      this.async = FeedSyncGrpc.newStub(blocking.getChannel());
    }

    void append(int count, long due) {
      blocking.append(request(count, due));
    }

    void appendAsync(int count, long due) {
      async.append(request(count, due), new StreamObserver<>() {
        @Override
        public void onNext(AppendResponse value) {
          acks.recordValue(Math.max(0, TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - due)));
        }

        @Override
        public void onError(Throwable t) {
          failures.incrementAndGet();
        }

        @Override
        public void onCompleted() {}
      });
    }

    private synchronized AppendRequest request(int count, long due) {
      byte[] data = new byte[AppendWorkload.DATA_BYTES];
      ByteBuffer.wrap(data).putLong(due);
      ByteString bytes = ByteString.copyFrom(data);
      AppendRequest.Builder request = AppendRequest.newBuilder().setSpaceId(SPACE).setRequestId("f" + sequence);
      for (int i = 0; i < count; i++) {
        Block.Builder block = Block.newBuilder().setFeedId(feed).setActorId("fan-writer").setSequence(sequence)
            .setTimestamp(System.currentTimeMillis()).setData(bytes);
        if (sequence > 0) {
          block.setPrevActorId("fan-writer").setPrevSequence(sequence - 1);
        }
        request.addBlocks(block);
        sequence++;
      }
      return request.build();
    }
  }
}
