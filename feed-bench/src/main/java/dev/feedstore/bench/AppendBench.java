package dev.feedstore.bench;

import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.AppendResponse;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import io.grpc.ManagedChannel;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Append throughput of the authority on loopback, one client sending one request after another,
 * beside the raw SQLite limit ({@link RawSqlite}) for the same rows: each case starts from a fresh
 * database file, warms up, then counts the blocks stored in a fixed time.
 */
final class AppendBench {
  private final BenchOptions options;
  private final ResultTable table;

  AppendBench(BenchOptions options, ResultTable table) {
    this.options = options;
    this.table = table;
  }

  void run() throws Exception {
    Map<Integer, Double> oneFeed = new HashMap<>();
    for (AppendWorkload.Shape shape : AppendWorkload.Shape.values()) {
      for (int batch : options.appendBatches()) {
        double raw = raw(options, shape, batch);
        double[] servedAndCpu = served(shape.label, new AppendWorkload(shape, batch, 42)::nextRequest, batch);
        double served = servedAndCpu[0];
        if (shape == AppendWorkload.Shape.ONE_FEED) {
          oneFeed.put(batch, served);
        }
        ResultTable.Target target = batch >= 100 ? ResultTable.Target.atLeastRatio(0.5) : ResultTable.Target.NONE;
        table.add("append." + shape.label + ".batch" + batch, served, "blocks/s", raw, target);
        table.add("append." + shape.label + ".batch" + batch + ".server_cpu_per_block", servedAndCpu[1], "us");
        table.add("append." + shape.label + ".batch" + batch + ".server_jit_cpu_per_block", servedAndCpu[2], "us");
        Progress.say("append %s batch %d: %.0f blocks/s (server CPU %.1f us/block, of it JIT compiling %.1f),"
            + " raw SQLite %.0f blocks/s", shape.label, batch, served, servedAndCpu[1], servedAndCpu[2], raw);
      }
    }
    for (int batch : options.appendBatches()) {
      double[] servedAndCpu = served("repushed",
          repushing(new AppendWorkload(AppendWorkload.Shape.ONE_FEED, batch, 42)), batch);
      table.add("append.repushed.batch" + batch, servedAndCpu[0], "blocks/s", oneFeed.get(batch),
          ResultTable.Target.NONE);
      table.add("append.repushed.batch" + batch + ".server_cpu_per_block", servedAndCpu[1], "us");
      Progress.say("append repushed batch %d: %.0f new blocks/s (server CPU %.1f us/new block), one-feed %.0f",
          batch, servedAndCpu[0], servedAndCpu[1], oneFeed.get(batch));
    }
    table.note("append.*: one client, one request at a time, 256-byte blocks, " + AppendWorkload.FEEDS
        + " feeds of one space; baseline = the same rows with raw sqlite-jdbc, one transaction per batch,"
        + " same schema, settings (WAL, synchronous=FULL) and checkpoints as the store; " + options.appendWarmupSeconds()
        + " s warm-up, "
        + options.appendSeconds() + " s measured per case, fresh file per case");
    table.note("append.repushed.*: as one-feed, each request led by the last block of the request before, sent"
        + " again (one key held per request, as in a push retried after its answer was lost); new blocks per"
        + " second; baseline = append.one-feed of the same batch in the same run");
  }

  /**
   * Blocks per second (the {@code batch} new blocks of each request), the server's CPU microseconds
   * per block, and the part of them its JIT compiler threads used (a server still compiling its hot
   * paths, as on a loaded host).
   */
  private double[] served(String label, Supplier<AppendRequest> requests, int batch) {
    Path db = options.dir().resolve("append-" + label + "-" + batch + ".db");
    {
      BenchServer server = options.server().reopen(db);
      ManagedChannel channel = server.channel();
      try {
        FeedSyncGrpc.FeedSyncBlockingStub stub = FeedSyncGrpc.newBlockingStub(channel);
        runFor(options.appendWarmupSeconds(), () -> send(stub, requests.get()));
        long cpu = server.cpuNanos();
        long jit = server.compilerCpuNanos();
        long[] sent = new long[1];
        double rate = runFor(options.appendSeconds(), () -> {
          send(stub, requests.get());
          sent[0] += batch;
        }) * batch;
        return new double[] {rate, (server.cpuNanos() - cpu) / 1000.0 / sent[0],
            (server.compilerCpuNanos() - jit) / 1000.0 / sent[0]};
      } finally {
        BenchServer.shutdown(channel);
      }
    }
  }

  /**
   * The requests of {@code workload}, each but the first led by the last block of the request before,
   * sent again: the server holds its key, and answers with its stored position.
   */
  private static Supplier<AppendRequest> repushing(AppendWorkload workload) {
    AppendRequest[] before = {null};
    return () -> {
      AppendRequest next = workload.nextRequest();
      AppendRequest sent = before[0] == null ? next
          : next.toBuilder().addBlocks(0, before[0].getBlocks(before[0].getBlocksCount() - 1)).build();
      before[0] = next;
      return sent;
    };
  }

  /**
   * Rows per second raw sqlite-jdbc writes in this process, {@code batch} rows of {@code shape} per
   * transaction, with the store's schema and settings, warmed up and measured as an append case.
   */
  static double raw(BenchOptions options, AppendWorkload.Shape shape, int batch) throws SQLException {
    Path db = options.dir().resolve("raw-" + shape.label + "-" + batch + ".db");
    AppendWorkload workload = new AppendWorkload(shape, batch, 42);
    try (RawSqlite raw = new RawSqlite(db, workload)) {
      Step step = () -> raw.insert(workload.nextRows(), workload.data());
      runFor(options.appendWarmupSeconds(), step);
      return runFor(options.appendSeconds(), step) * batch;
    }
  }

  private static void send(FeedSyncGrpc.FeedSyncBlockingStub stub, AppendRequest request) {
    AppendResponse response = stub.append(request);
    if (response.getPositionsCount() != request.getBlocksCount()) {
      throw new IllegalStateException("expected " + request.getBlocksCount() + " positions, got "
          + response.getPositionsCount());
    }
  }

  @FunctionalInterface
  interface Step {
    void run() throws Exception;
  }

  /** Runs {@code step} repeatedly for {@code seconds}; returns steps per second. */
  static double runFor(double seconds, Step step) {
    long start = System.nanoTime();
    long deadline = start + (long) (seconds * 1e9);
    long steps = 0;
    try {
      long now;
      do {
        step.run();
        steps++;
        now = System.nanoTime();
      } while (now < deadline);
      return steps / ((now - start) / 1e9);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  static List<Integer> defaultBatches() {
    return List.of(1, 10, 100);
  }
}
