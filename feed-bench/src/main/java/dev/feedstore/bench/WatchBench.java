package dev.feedstore.bench;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.WatchRequest;
import io.grpc.CallOptions;
import io.grpc.Context;
import io.grpc.KnownLength;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
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
            if (stream instanceof KnownLength) { // gRPC's own message stream: one copy, of its known size
              byte[] message = new byte[stream.available()];
              if (stream.readNBytes(message, 0, message.length) == message.length && stream.read() < 0) {
                return message;
              }
              throw new IOException("a Watch message was not the length it said");
            }
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
      // The blocks of one append share their due time: their delays are recorded once per run of them.
      long runDue = 0;
      long runLength = 0;
      long count = 0;
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
            if (due != runDue) {
              record(runDue, runLength, now);
              runDue = due;
              runLength = 0;
            }
            runLength += due != 0 ? 1 : 0;
          } else {
            in.skipField(field);
          }
        }
        in.popLimit(block);
        count++;
      }
      in.popLimit(batch);
      record(runDue, runLength, now);
      blocks.addAndGet(count); // after their delays: a reader that sees every block counted sees their delays too
    }

    private void record(long due, long count, long now) {
      if (count > 0) {
        StreamMeasure.delivered(recorder, due, now, count);
      }
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
        FanoutAppender appender = new FanoutAppender(SPACE, blocking);
        appender.append(1, 0); // the space exists, with one block at position 1
        Recorder recorder = StreamMeasure.delays();
        // Warm the server's watch path up, then measure its heap with no stream open.
        close(open(channels, 20, recorder));
        long before = server.usedHeapAfterGc();
        int streams = Math.max(idle ? options.idleStreams() : 0, fanout ? options.fanoutStreams() : 0);
        List<Watcher> watchers = open(channels, streams, recorder);
        if (idle) {
          StreamMeasure.idle(table, server, "idle", options.idleStreams(), before,
              "Watch streams (over " + CHANNELS + " connections)");
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

  private void fanout(BenchServer server, FanoutAppender appender, List<Watcher> watchers, Recorder recorder)
      throws Exception {
    StreamMeasure.fanout(options, table, server, appender, watchers.stream().map(w -> (LongSupplier) w.blocks::get)
        .toList(), recorder, StreamMeasure.WATCH,
        watchers.size() + " Watch streams (over " + CHANNELS + " connections)");
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
}
