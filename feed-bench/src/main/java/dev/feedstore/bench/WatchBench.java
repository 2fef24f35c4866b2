package dev.feedstore.bench;

import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.WatchRequest;
import io.grpc.ManagedChannel;
import java.util.ArrayList;
import java.util.List;
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
        List<WatchStreams.Watcher> watchers = open(channels, streams, recorder);
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

  private void fanout(BenchServer server, FanoutAppender appender, List<WatchStreams.Watcher> watchers, Recorder recorder)
      throws Exception {
    StreamMeasure.fanout(options, table, server, appender, watchers.stream().map(w -> (LongSupplier) w.blocks::get)
        .toList(), recorder, StreamMeasure.WATCH,
        watchers.size() + " Watch streams (over " + CHANNELS + " connections)");
  }

  /** Opens {@code count} streams over the first {@link #CHANNELS} channels (the last is the appender's). */
  private static List<WatchStreams.Watcher> open(List<ManagedChannel> channels, int count, Recorder recorder)
      throws InterruptedException {
    return WatchStreams.open(channels.subList(0, CHANNELS), count, WatchRequest.newBuilder().setSpaceId(SPACE).setCursor(1).build(),
        recorder, WatchStreams.BINARY);
  }

  private static void close(List<WatchStreams.Watcher> watchers) {
    RawStream.close(watchers);
  }
}
