package dev.feedstore.bench;

import static dev.feedstore.server.settings.ServerSettings.APPEND_GROUP_BLOCKS;

import com.google.protobuf.ByteString;
import dev.feedstore.core.FeedId;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import io.grpc.ManagedChannel;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Many writers at once: {@code C} clients, each with its own connection and its own feed, each
 * sending blocking one-at-a-time Appends of {@code B} 256-byte blocks, into one space or a space per
 * client. Each case runs twice on a fresh file, with group commit on (the shipped default) and off
 * ({@code append-group-blocks} 1, every append its own transaction, as before group commit), and
 * the second is the first's baseline. Beside them, the raw SQLite limit of the same schema and
 * settings at 1 and at 100 rows per transaction ({@link RawSqlite}).
 */
final class ConcurrentAppendBench {
  /** A case: clients, blocks per call, and whether each client has a space of its own. */
  record Case(int clients, int batch, boolean spacePerClient) {
    String label() {
      return "append.concurrent.c" + clients + ".batch" + batch + (spacePerClient ? ".space-per-client" : ".one-space");
    }
  }

  /** What a measured case gave: blocks per second, call latency percentiles, server CPU per block. */
  record Measured(double blocksPerSecond, double p50Millis, double p99Millis, double cpuMicrosPerBlock) {}

  static final List<Case> CASES = List.of(
      new Case(1, 1, false),
      new Case(10, 1, false), new Case(10, 1, true),
      new Case(100, 1, false), new Case(100, 1, true),
      new Case(100, 10, false), new Case(100, 10, true));

  private final BenchOptions options;
  private final ResultTable table;

  ConcurrentAppendBench(BenchOptions options, ResultTable table) {
    this.options = options;
    this.table = table;
  }

  void run() throws Exception {
    double raw1 = raw(1);
    double raw100 = raw(100);
    table.add("append.concurrent.raw.rows1_per_tx", raw1, "rows/s");
    table.add("append.concurrent.raw.rows100_per_tx", raw100, "rows/s");
    for (Case c : CASES) {
      // Alternated, so that the two figures of a case see the same load of the shared machine.
      Measured off = measure(c, 1);
      Measured on = measure(c, APPEND_GROUP_BLOCKS.defaultValue());
      table.add(c.label(), on.blocksPerSecond(), "blocks/s", off.blocksPerSecond(), throughputTarget(c));
      table.add(c.label() + ".p50", on.p50Millis(), "ms", off.p50Millis(), ResultTable.Target.NONE);
      table.add(c.label() + ".p99", on.p99Millis(), "ms", off.p99Millis(),
          c.clients() == 100 && c.batch() == 1 && !c.spacePerClient() ? ResultTable.Target.atMost(20, "ms")
              : ResultTable.Target.NONE);
      table.add(c.label() + ".server_cpu_per_block", on.cpuMicrosPerBlock(), "us", off.cpuMicrosPerBlock(),
          ResultTable.Target.NONE);
      Progress.say("%s: group commit %.0f blocks/s (p50 %.2f ms, p99 %.2f ms, server CPU %.1f us/block);"
              + " each append alone %.0f blocks/s (p50 %.2f ms, p99 %.2f ms, %.1f us/block)",
          c.label(), on.blocksPerSecond(), on.p50Millis(), on.p99Millis(), on.cpuMicrosPerBlock(),
          off.blocksPerSecond(), off.p50Millis(), off.p99Millis(), off.cpuMicrosPerBlock());
    }
    table.note("append.concurrent.*: C clients (own connection, own feed) each sending blocking Appends of B"
        + " 256-byte blocks one after another, into one space or a space per client; value = group commit on"
        + " (append-group-blocks " + APPEND_GROUP_BLOCKS.defaultValue() + "), baseline = the same case"
        + " with every append its own transaction (append-group-blocks 1), run just before it on a fresh file;"
        + " .p50/.p99 = call latency; raw.rows1_per_tx / rows100_per_tx = raw sqlite-jdbc inserts of the same"
        + " schema and settings, one feed, 1 or 100 rows per transaction; " + options.appendWarmupSeconds()
        + " s warm-up, " + options.appendSeconds() + " s measured per case");
  }

  private static ResultTable.Target throughputTarget(Case c) {
    if (c.clients() == 100 && c.batch() == 1) {
      return ResultTable.Target.atLeast(c.spacePerClient() ? 10_000 : 15_000, "blocks/s");
    }
    return ResultTable.Target.NONE;
  }

  private Measured measure(Case c, int groupBlocks) throws InterruptedException {
    Path db = options.dir().resolve("concurrent-" + c.clients() + "-" + c.batch() + "-"
        + (c.spacePerClient() ? "spaces" : "space") + "-" + groupBlocks + ".db");
    BenchServer server = options.server().reopen(db, groupBlocks);
    List<Writer> writers = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    CountDownLatch ready = new CountDownLatch(c.clients());
    Random random = new Random(7);
    byte[] data = new byte[AppendWorkload.DATA_BYTES];
    random.nextBytes(data);
    long start = System.nanoTime();
    long measureFrom = start + (long) (options.appendWarmupSeconds() * 1e9);
    long measureUntil = measureFrom + (long) (options.appendSeconds() * 1e9);
    for (int i = 0; i < c.clients(); i++) {
      String space = c.spacePerClient() ? "bench-" + i : "bench";
      Writer writer = new Writer(server.channel(), space, FeedId.generate(java.time.Clock.systemUTC(), random),
          "writer-" + i, c.batch(), ByteString.copyFrom(data), measureFrom, measureUntil, ready);
      writers.add(writer);
      Thread thread = new Thread(writer, "writer-" + i);
      threads.add(thread);
      thread.start();
    }
    sleepUntil(measureFrom);
    long cpu = server.cpuNanos();
    sleepUntil(measureUntil);
    long cpuUsed = server.cpuNanos() - cpu;
    for (Thread thread : threads) {
      thread.join();
    }
    long blocks = 0;
    List<long[]> latencies = new ArrayList<>();
    int count = 0;
    for (Writer writer : writers) {
      writer.channel.shutdownNow();
      if (writer.failure.get() != null) {
        throw new IllegalStateException("a writer failed", writer.failure.get());
      }
      blocks += writer.measuredBlocks;
      latencies.add(writer.latencies());
      count += writer.latencies().length;
    }
    long[] all = new long[count];
    int at = 0;
    for (long[] part : latencies) {
      System.arraycopy(part, 0, all, at, part.length);
      at += part.length;
    }
    Arrays.sort(all);
    double seconds = options.appendSeconds();
    return new Measured(blocks / seconds, percentile(all, 0.50) / 1e6, percentile(all, 0.99) / 1e6,
        blocks == 0 ? Double.NaN : cpuUsed / 1000.0 / blocks);
  }

  private static long percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return 0;
    }
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)];
  }

  private static void sleepUntil(long nanoTime) throws InterruptedException {
    long left;
    while ((left = nanoTime - System.nanoTime()) > 0) {
      Thread.sleep(Math.max(1, left / 1_000_000));
    }
  }

  private double raw(int rowsPerTransaction) throws SQLException {
    Path db = options.dir().resolve("concurrent-raw-" + rowsPerTransaction + ".db");
    AppendWorkload workload = new AppendWorkload(AppendWorkload.Shape.ONE_FEED, rowsPerTransaction, 42);
    try (RawSqlite raw = new RawSqlite(db, workload)) {
      AppendBench.Step step = () -> raw.insert(workload.nextRows(), workload.data());
      AppendBench.runFor(options.appendWarmupSeconds(), step);
      return AppendBench.runFor(options.appendSeconds(), step) * rowsPerTransaction;
    }
  }

  /** One client: appends to its own feed until the end of the measured window; records call latencies in it. */
  private static final class Writer implements Runnable {
    final ManagedChannel channel;
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final String space;
    private final FeedId feed;
    private final String actor;
    private final int batch;
    private final ByteString data;
    private final long measureFrom;
    private final long measureUntil;
    private final CountDownLatch ready;
    private long[] latencies = new long[1024];
    private int calls;
    long measuredBlocks;

    Writer(ManagedChannel channel, String space, FeedId feed, String actor, int batch, ByteString data,
        long measureFrom, long measureUntil, CountDownLatch ready) {
      this.channel = channel;
      this.space = space;
      this.feed = feed;
      this.actor = actor;
      this.batch = batch;
      this.data = data;
      this.measureFrom = measureFrom;
      this.measureUntil = measureUntil;
      this.ready = ready;
    }

    long[] latencies() {
      return Arrays.copyOf(latencies, calls);
    }

    @Override
    public void run() {
      try {
        FeedSyncGrpc.FeedSyncBlockingStub stub = FeedSyncGrpc.newBlockingStub(channel);
        long sequence = 0;
        ready.countDown();
        while (true) {
          AppendRequest.Builder request = AppendRequest.newBuilder().setSpaceId(space).setRequestId(actor);
          for (int i = 0; i < batch; i++, sequence++) {
            Block.Builder block = Block.newBuilder().setFeedId(feed.value()).setActorId(actor).setSequence(sequence)
                .setTimestamp(System.currentTimeMillis()).setData(data);
            if (sequence > 0) {
              block.setPrevActorId(actor).setPrevSequence(sequence - 1);
            }
            request.addBlocks(block);
          }
          long sent = System.nanoTime();
          if (sent >= measureUntil) {
            return;
          }
          int positions = stub.append(request.build()).getPositionsCount();
          long answered = System.nanoTime();
          if (positions != batch) {
            throw new IllegalStateException("expected " + batch + " positions, got " + positions);
          }
          if (sent >= measureFrom && answered <= measureUntil) {
            if (calls == latencies.length) {
              latencies = Arrays.copyOf(latencies, calls * 2);
            }
            latencies[calls++] = answered - sent;
            measuredBlocks += batch;
          }
        }
      } catch (Throwable e) {
        failure.set(e);
      }
    }
  }
}
