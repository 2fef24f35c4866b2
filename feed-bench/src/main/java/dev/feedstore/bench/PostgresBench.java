package dev.feedstore.bench;

import dev.feedstore.core.store.BlockChecksum;
import dev.feedstore.postgres.PostgresSettings;
import dev.feedstore.postgres.PostgresStore;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.Histogram;

/**
 * The authority over PostgreSQL ({@code --store postgres}): an embedded PostgreSQL started from
 * Maven's binaries and three server processes ({@code dev.feedstore.server.Main --postgres}, in JVMs
 * of their own) on one database of it, started once and warmed up (as the SQLite part's server), a
 * space of its own per case. Rows:
 * <ul>
 *   <li>{@code pg.append.<shape>.batch<N>}: one client, one process, beside a raw pgjdbc insert of the
 *       same rows into the same schema (one transaction per batch, as the store commits): the limit;
 *       with the server's CPU per block and the median time of a request ({@code .p50});
 *   <li>{@code pg.procs3.one_space}, {@code pg.procs3.three_spaces}: three processes, a client each,
 *       batch 100, appending to one space (serialized by its counter row) or each to its own, beside
 *       one process and one client;
 *   <li>{@code pg.watch.cross_process.p50/p99}: appends through process A at a fixed rate, delivered
 *       by a Watch on process B: the time from sending the append to receiving its block.
 * </ul>
 */
final class PostgresBench {
  private final BenchOptions options;
  private final ResultTable table;
  private final AtomicInteger databases = new AtomicInteger();
  private EmbeddedPostgres postgres;

  PostgresBench(BenchOptions options, ResultTable table) {
    this.options = options;
    this.table = table;
  }

  void run(int watchBlocks, double warmupSeconds) throws Exception {
    // Durable commits, as a production database makes them (the library's defaults turn them off).
    postgres = EmbeddedPostgres.builder().setServerConfig("max_connections", "300").setServerConfig("fsync", "on")
        .setServerConfig("synchronous_commit", "on").start();
    try (Servers servers = new Servers(newDatabase(), 3, options.serverJvmArgs())) {
      Progress.say("embedded PostgreSQL on port %d, three server processes; warming them up for %.0f s",
          postgres.getPort(), warmupSeconds);
      warmUp(servers, warmupSeconds);
      append(servers);
      processes(servers);
      watch(servers, watchBlocks);
    } finally {
      postgres.close();
    }
  }

  /** Appends of every shape through every server, in spaces no case uses, until the JIT settles. */
  private void warmUp(Servers servers, double seconds) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(servers.size());
    try {
      List<Future<Double>> done = new ArrayList<>();
      for (int i = 0; i < servers.size(); i++) {
        FeedSyncGrpc.FeedSyncBlockingStub stub = FeedSyncGrpc.newBlockingStub(servers.channel(i));
        AppendWorkload[] workloads = {new AppendWorkload(AppendWorkload.Shape.ONE_FEED, 10, i),
            new AppendWorkload(AppendWorkload.Shape.INTERLEAVED, 100, i)};
        String[] spaces = {"warm-up-" + i + "-a", "warm-up-" + i + "-b"};
        long[] step = {0};
        done.add(pool.submit(() -> AppendBench.runFor(seconds, () -> {
          int which = (int) (step[0]++ % 2);
          stub.append(inSpace(workloads[which].nextRequest(), spaces[which]));
        })));
      }
      for (Future<Double> future : done) {
        future.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  // ---------------------------------------------------------------- append, one process

  private void append(Servers servers) throws Exception {
    for (AppendWorkload.Shape shape : AppendWorkload.Shape.values()) {
      for (int batch : options.appendBatches()) {
        double raw = raw(shape, batch);
        double[] servedAndCpu = appendRate(servers, new AppendWorkload(shape, batch, 42), batch,
            "append-" + shape.label + "-" + batch);
        double served = servedAndCpu[0];
        ResultTable.Target target = batch >= 100 ? ResultTable.Target.atLeastRatio(0.5) : ResultTable.Target.NONE;
        table.add("pg.append." + shape.label + ".batch" + batch, served, "blocks/s", raw, target);
        table.add("pg.append." + shape.label + ".batch" + batch + ".server_cpu_per_block", servedAndCpu[1], "us");
        table.add("pg.append." + shape.label + ".batch" + batch + ".p50", servedAndCpu[2], "ms");
        Progress.say("postgres append %s batch %d: %.0f blocks/s (server CPU %.1f us/block, p50 %.2f ms a request),"
            + " raw pgjdbc %.0f blocks/s", shape.label, batch, served, servedAndCpu[1], servedAndCpu[2], raw);
      }
    }
    table.note("pg.append.*: as append.*, over the embedded PostgreSQL (fsync and synchronous_commit on, other"
        + " settings default), one server process, a fresh space per case, *.server_cpu_per_block the CPU time of its"
        + " process while measuring (all threads, clock-tick resolution), *.p50 the median time from sending a request"
        + " to its answer; baseline = the same rows inserted with raw"
        + " pgjdbc into the same schema (a fresh database per case), one prepared batch and one transaction per"
        + " request");
  }

  /**
   * Blocks per second through the first server process, that process's CPU microseconds per block
   * (all its threads, as the operating system counts them), and the median milliseconds of a request.
   */
  private double[] appendRate(Servers servers, AppendWorkload workload, int batch, String space) {
    FeedSyncGrpc.FeedSyncBlockingStub stub = FeedSyncGrpc.newBlockingStub(servers.channel(0));
    AppendBench.runFor(options.appendWarmupSeconds(), () -> stub.append(inSpace(workload.nextRequest(), space)));
    long cpu = servers.cpuNanos(0);
    long[] sent = new long[1];
    Histogram latency = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
    double rate = AppendBench.runFor(options.appendSeconds(), () -> {
      AppendRequest request = inSpace(workload.nextRequest(), space);
      long start = System.nanoTime();
      stub.append(request);
      latency.recordValue(Math.min(latency.getHighestTrackableValue(), (System.nanoTime() - start) / 1000));
      sent[0] += batch;
    }) * batch;
    return new double[] {rate, (servers.cpuNanos(0) - cpu) / 1000.0 / sent[0],
        latency.getValueAtPercentile(50) / 1000.0};
  }

  /** The same rows, straight into the schema the store made: positions counted here, one transaction per batch. */
  private double raw(AppendWorkload.Shape shape, int batch) throws SQLException {
    String url = newDatabase();
    PostgresStore.open(PostgresSettings.of(url)).close(); // the schema
    AppendWorkload workload = new AppendWorkload(shape, batch, 42);
    try (Connection c = DriverManager.getConnection(url)) {
      long space;
      long[] feeds = new long[AppendWorkload.FEEDS];
      try (Statement statement = c.createStatement()) {
        var rs = statement.executeQuery("INSERT INTO spaces (space_id) VALUES ('bench') RETURNING space_private_id");
        rs.next();
        space = rs.getLong(1);
      }
      try (PreparedStatement feed = c.prepareStatement("INSERT INTO feeds (space_private_id, feed_id) VALUES (?, ?)"
          + " RETURNING feed_private_id")) {
        for (int i = 0; i < feeds.length; i++) {
          feed.setLong(1, space);
          feed.setString(2, workload.feeds().get(i).value());
          var rs = feed.executeQuery();
          rs.next();
          feeds[i] = rs.getLong(1);
        }
      }
      c.setAutoCommit(false);
      long[] position = {0};
      PreparedStatement insert = c.prepareStatement("INSERT INTO blocks (space_private_id, feed_private_id, position,"
          + " sequence, actor_id, prev_sequence, prev_actor_id, timestamp, data, checksum)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
      AppendBench.Step step = () -> {
        for (AppendWorkload.Row row : workload.nextRows()) {
          insert.setLong(1, space);
          insert.setLong(2, feeds[row.feed()]);
          insert.setLong(3, ++position[0]);
          insert.setLong(4, row.sequence());
          insert.setString(5, AppendWorkload.ACTOR);
          if (row.sequence() > 0) {
            insert.setLong(6, row.sequence() - 1);
            insert.setString(7, AppendWorkload.ACTOR);
          } else {
            insert.setNull(6, java.sql.Types.BIGINT);
            insert.setNull(7, java.sql.Types.VARCHAR);
          }
          insert.setLong(8, row.timestamp());
          insert.setBytes(9, workload.data());
          insert.setInt(10, BlockChecksum.of(workload.feeds().get(row.feed()).value(), AppendWorkload.ACTOR,
              row.sequence(), row.sequence() > 0 ? AppendWorkload.ACTOR : null, row.sequence() - 1, row.timestamp(),
              workload.data()));
          insert.addBatch();
        }
        insert.executeBatch();
        c.commit();
      };
      AppendBench.runFor(options.appendWarmupSeconds(), step);
      return AppendBench.runFor(options.appendSeconds(), step) * batch;
    }
  }

  // ---------------------------------------------------------------- three processes

  private void processes(Servers servers) throws Exception {
    double[] busy = new double[3];
    double one = concurrentRate(servers, 1, "procs1", busy, 0);
    double oneSpace = concurrentRate(servers, 3, "procs3-one", busy, 1);
    double threeSpaces = concurrentRate(servers, 3, null, busy, 2);
    table.add("pg.procs1.machine_cpu_busy", busy[0] * 100, "%", ResultTable.Target.NONE);
    table.add("pg.procs3.one_space.machine_cpu_busy", busy[1] * 100, "%", ResultTable.Target.NONE);
    table.add("pg.procs3.three_spaces.machine_cpu_busy", busy[2] * 100, "%", ResultTable.Target.NONE);
    table.add("pg.procs3.one_space", oneSpace, "blocks/s", one, ResultTable.Target.NONE);
    table.add("pg.procs3.three_spaces", threeSpaces, "blocks/s", one, ResultTable.Target.atLeastRatio(2.5));
    Progress.say("postgres: one process %.0f blocks/s (machine CPU %.0f%% busy); three processes, one space %.0f"
        + " (%.0f%%), three spaces %.0f (%.0f%%)", one, busy[0] * 100, oneSpace, busy[1] * 100, threeSpaces,
        busy[2] * 100);
    table.note("pg.procs3.*: three server processes on one database, a client each appending batches of 100 (one"
        + " feed a request) to one space or each to a space of its own; baseline = one process and one client; "
        + Runtime.getRuntime().availableProcessors() + " cores for the servers, PostgreSQL and the clients together;"
        + " *.machine_cpu_busy: the share of all cores busy while measuring (/proc/stat, everything on the machine)");
  }

  /**
   * Blocks per second that {@code clients} clients, one per server, append together: to {@code space},
   * or each to a space of its own when it is null.
   */
  private double concurrentRate(Servers servers, int clients, String oneSpace, double[] busy, int slot)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      List<Future<Double>> rates = new ArrayList<>();
      for (int i = 0; i < clients; i++) {
        FeedSyncGrpc.FeedSyncBlockingStub stub = FeedSyncGrpc.newBlockingStub(servers.channel(i % servers.size()));
        AppendWorkload workload = new AppendWorkload(AppendWorkload.Shape.ONE_FEED, 100, 42 + i);
        String space = oneSpace == null ? "procs3-each-" + i : oneSpace;
        rates.add(pool.submit(() -> {
          AppendBench.runFor(options.appendWarmupSeconds(), () -> stub.append(inSpace(workload.nextRequest(), space)));
          return AppendBench.runFor(options.appendSeconds(), () -> stub.append(inSpace(workload.nextRequest(), space)))
              * 100;
        }));
      }
      // Sampled across the measured window (after the clients' warm-up), from outside the clients.
      java.util.concurrent.locks.LockSupport.parkNanos((long) (options.appendWarmupSeconds() * 1e9));
      long[] before = cpuTicks();
      java.util.concurrent.locks.LockSupport.parkNanos((long) (options.appendSeconds() * 0.8e9));
      long[] after = cpuTicks();
      busy[slot] = after[1] == before[1] ? Double.NaN
          : 1 - (double) (after[0] - before[0]) / (after[1] - before[1]);
      double total = 0;
      for (Future<Double> rate : rates) {
        total += rate.get();
      }
      return total;
    } finally {
      pool.shutdownNow();
    }
  }

  /** Idle and total ticks of all cores so far ({@code /proc/stat}); zeros where there is none. */
  private static long[] cpuTicks() {
    try {
      String[] fields = java.nio.file.Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
      long total = 0;
      for (int i = 1; i < fields.length; i++) {
        total += Long.parseLong(fields[i]);
      }
      return new long[] {Long.parseLong(fields[4]) + Long.parseLong(fields[5]), total};
    } catch (IOException | RuntimeException e) {
      return new long[] {0, 0};
    }
  }

  private static AppendRequest inSpace(AppendRequest request, String space) {
    return request.toBuilder().setSpaceId(space).build();
  }

  // ---------------------------------------------------------------- cross-process Watch

  private void watch(Servers servers, int blocks) throws Exception {
    Histogram latency = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
    {
      ConcurrentHashMap<String, Long> sentAt = new ConcurrentHashMap<>();
      CountDownLatch received = new CountDownLatch(blocks);
      FeedSyncGrpc.newStub(servers.channel(1)).watch(WatchRequest.newBuilder().setSpaceId("watched").build(),
          new StreamObserver<>() {
            @Override
            public void onNext(WatchEvent event) {
              long now = System.nanoTime();
              for (var block : event.getBlocks().getBlocksList()) {
                Long sent = sentAt.remove(block.getFeedId() + "/" + block.getSequence());
                if (sent != null) {
                  latency.recordValue(Math.max(0, (now - sent) / 1000));
                  received.countDown();
                }
              }
            }

            @Override
            public void onError(Throwable t) {}

            @Override
            public void onCompleted() {}
          });
      FeedSyncGrpc.FeedSyncBlockingStub appender = FeedSyncGrpc.newBlockingStub(servers.channel(0));
      AppendWorkload workload = new AppendWorkload(AppendWorkload.Shape.ONE_FEED, 1, 7);
      long interval = TimeUnit.MILLISECONDS.toNanos(10);
      long next = System.nanoTime();
      for (int i = 0; i < blocks; i++) {
        AppendRequest request = inSpace(workload.nextRequest(), "watched");
        while (System.nanoTime() < next) {
          Thread.onSpinWait(); // paces the appends: 100 a second
        }
        sentAt.put(request.getBlocks(0).getFeedId() + "/" + request.getBlocks(0).getSequence(), System.nanoTime());
        appender.append(request);
        next += interval;
      }
      boolean all = received.await(60, TimeUnit.SECONDS);
      table.add("pg.watch.cross_process.p50", latency.getValueAtPercentile(50) / 1000.0, "ms", ResultTable.Target.NONE);
      table.add("pg.watch.cross_process.p99", latency.getValueAtPercentile(99) / 1000.0, "ms",
          ResultTable.Target.atMost(50, "ms"));
      table.add("pg.watch.cross_process.undelivered", received.getCount(), "blocks", ResultTable.Target.atMost(0, ""));
      Progress.say("postgres cross-process watch: p50 %.2f ms, p99 %.2f ms, %s", latency.getValueAtPercentile(50) / 1000.0,
          latency.getValueAtPercentile(99) / 1000.0, all ? "all delivered" : received.getCount() + " undelivered");
      table.note("pg.watch.*: " + blocks + " blocks appended one by one through process A, 100 a second (feeds taking"
          + " turns), and a Watch of the space on process B: from sending the append to B"
          + " delivering the block");
    }
  }

  // ---------------------------------------------------------------- set-up

  private String newDatabase() throws SQLException {
    String name = "bench_" + databases.incrementAndGet();
    try (Connection c = DriverManager.getConnection(url("postgres")); Statement statement = c.createStatement()) {
      statement.execute("CREATE DATABASE " + name);
    }
    return url(name);
  }

  private String url(String database) {
    return "jdbc:postgresql://localhost:" + postgres.getPort() + "/" + database + "?user=postgres";
  }

  /** Server processes on one database, each with a channel; closing stops them. */
  private static final class Servers implements AutoCloseable {
    private final List<Process> processes = new ArrayList<>();
    private final List<ManagedChannel> channels = new ArrayList<>();

    /** {@code count} server processes on the database at {@code url}, their JVMs started with {@code jvmArgs}. */
    Servers(String url, int count, List<String> jvmArgs) throws IOException {
      for (int i = 0; i < count; i++) {
        int port = freePort();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmArgs);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.feedstore.server.Main", "--postgres",
            url, "--port", Integer.toString(port), "--heartbeat-ms", "1000"));
        Process process = new ProcessBuilder(command)
            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        processes.add(process);
        ManagedChannel channel = io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder
            .forAddress("127.0.0.1", port).usePlaintext().build();
        channels.add(channel);
        awaitServing(channel, process);
      }
    }

    int size() {
      return channels.size();
    }

    ManagedChannel channel(int index) {
      return channels.get(index);
    }

    /** The CPU time the process has used so far, all threads (clock-tick resolution on Linux). */
    long cpuNanos(int index) {
      return processes.get(index).info().totalCpuDuration().map(java.time.Duration::toNanos)
          .orElseThrow(() -> new IllegalStateException("the system tells no CPU time of a server process"));
    }

    private static void awaitServing(ManagedChannel channel, Process process) {
      var health = io.grpc.health.v1.HealthGrpc.newBlockingStub(channel);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (System.nanoTime() < deadline) {
        if (!process.isAlive()) {
          throw new IllegalStateException("a server process exited with " + process.exitValue());
        }
        try {
          if (health.withDeadlineAfter(2, TimeUnit.SECONDS).check(io.grpc.health.v1.HealthCheckRequest
              .getDefaultInstance()).getStatus() == io.grpc.health.v1.HealthCheckResponse.ServingStatus.SERVING) {
            return;
          }
        } catch (io.grpc.StatusRuntimeException e) {
          // not listening yet
        }
        java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // the next look
      }
      throw new IllegalStateException("a server process did not serve within 60 s");
    }

    private static int freePort() throws IOException {
      try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
        return socket.getLocalPort();
      }
    }

    @Override
    public void close() throws InterruptedException {
      channels.forEach(ManagedChannel::shutdownNow);
      for (Process process : processes) {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      }
    }
  }
}
