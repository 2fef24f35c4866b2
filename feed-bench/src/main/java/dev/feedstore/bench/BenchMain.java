package dev.feedstore.bench;

import dev.feedstore.client.Appender;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The benchmark program: {@code java -jar feed-bench/target/feed-bench.jar [--only ...] [--quick]}.
 * Prints one table on stdout (progress goes to stderr). Exit code 0 when it ran, whether targets
 * were met or not; 1 when a case failed.
 */
@Command(name = "feed-bench", mixinStandardHelpOptions = true, sortOptions = false, showDefaultValues = true,
    usageHelpWidth = 110,
    description = "Benchmarks of the feed store on loopback: append, catch-up, live latency, offline backlog, fan-out,"
        + " idle cost, compaction, gzip on catch-up pages, live queries on a replica and at the edge; and the cost of a"
        + " block's checksum"
        + " and of a link of the history chain.")
public final class BenchMain implements Callable<Integer> {

  /** The parts of the table. */
  enum Part {
    append, pipeline, concurrent, catchup, live, fanout, idle, ssefanout, sseidle, streamsfanout, httpappend, checksum,
    chain, backlog, fairness, streams, compaction, compression, livequery, livequery_server;

    /** The name {@code --only} takes: {@code livequery-server} for {@code livequery_server}. */
    @Override
    public String toString() {
      return name().replace('_', '-');
    }
  }

  @Option(names = "--only", split = ",", paramLabel = "PART",
      description = "Parts to run: ${COMPLETION-CANDIDATES} (default: all).")
  Set<Part> only = EnumSet.allOf(Part.class);

  /** The store the measured authority serves from. */
  enum Store { sqlite, postgres }

  @Option(names = "--store", paramLabel = "sqlite|postgres",
      description = "sqlite: the parts of --only, over a SQLite file; postgres: the PostgreSQL rows (append beside raw"
          + " pgjdbc, three processes on one and on three spaces, cross-process Watch latency) over an embedded"
          + " PostgreSQL started from Maven's binaries.")
  Store store = Store.sqlite;

  @Option(names = "--pg-watch-blocks", paramLabel = "N",
      description = "Blocks of the cross-process Watch latency (--store postgres).")
  Integer pgWatchBlocks;

  @Option(names = "--quick", description = "Small sizes, for a run of a minute or two (numbers are noisier).")
  boolean quick;

  @Option(names = "--dir", paramLabel = "DIR", description = "Where the database files go (default: a new temporary"
      + " directory, deleted afterwards).")
  Path dir;

  @Option(names = "--keep", description = "Keep the database files.")
  boolean keep;

  @Option(names = "--out", paramLabel = "FILE", description = "Also write the table to FILE.")
  Path out;

  @Option(names = "--in-process", description = "Run the server in this JVM (its heap is then not told apart).")
  boolean inProcess;

  @Option(names = "--server-jvm", split = " ", paramLabel = "ARGS", description = "Options of the server's JVM.")
  List<String> serverJvm = new ArrayList<>();

  @Option(names = "--server-cpus", paramLabel = "N",
      description = "Run the server's JVM on the first N CPUs only (taskset -c 0-(N-1) and"
          + " -XX:ActiveProcessorCount=N): what a slow host looks like.")
  Integer serverCpus;

  @Option(names = "--warmup-s", paramLabel = "S",
      description = "Warm-up before the first case (default 30, 8 with --quick).")
  Double warmup;

  @Option(names = "--append-batches", split = ",", paramLabel = "N") List<Integer> appendBatches = List.of(1, 10, 100);
  @Option(names = "--append-warmup-s", paramLabel = "S") Double appendWarmup;
  @Option(names = "--append-s", paramLabel = "S") Double appendSeconds;

  @Option(names = "--pipeline-in-flight", split = ",", paramLabel = "N",
      description = "Calls in flight of the pipeline part's cases, each beside NATS JetStream's with as many"
          + " (at most " + ChildServer.APPEND_STREAM_WINDOW_CALLS + ").")
  List<Integer> pipelineInFlight = List.of(Appender.DEFAULT_MAX_CALLS_IN_FLIGHT, 256);

  @Option(names = "--pipeline-warmup-s", paramLabel = "S",
      description = "Warm-up of each pipelined case (default 8, 2 with --quick).")
  Double pipelineWarmup;
  @Option(names = "--catchup-blocks", paramLabel = "N") Integer catchupBlocks;
  @Option(names = "--live-blocks", paramLabel = "N") Integer liveBlocks;
  @Option(names = "--live-warmup-blocks", paramLabel = "N") Integer liveWarmup;
  @Option(names = "--live-interval-us", paramLabel = "US") long liveInterval = 1000;
  @Option(names = "--fanout-streams", paramLabel = "N") Integer fanoutStreams;
  @Option(names = "--fanout-s", paramLabel = "S") Double fanoutSeconds;
  @Option(names = "--fanout-warmup-s", paramLabel = "S") Double fanoutWarmup;
  @Option(names = "--fanout-rate", paramLabel = "BLOCKS_PER_S") int fanoutRate = 1000;
  @Option(names = "--fanout-batch", paramLabel = "N") int fanoutBatch = 10;
  @Option(names = "--idle-streams", paramLabel = "N") Integer idleStreams;
  @Option(names = "--checksum-blocks", paramLabel = "N") Integer checksumBlocks;
  @Option(names = "--chain-blocks", paramLabel = "N") Integer chainBlocks;
  @Option(names = "--backlog-blocks", paramLabel = "N") Integer backlogBlocks;
  @Option(names = "--fairness-queries", paramLabel = "N") Integer fairnessQueries;
  @Option(names = "--stream-messages", paramLabel = "N") Integer streamMessages;
  @Option(names = "--compaction-blocks", paramLabel = "N") Integer compactionBlocks;
  @Option(names = "--livequery-documents", paramLabel = "N") Integer livequeryDocuments;
  @Option(names = "--livequery-queries", paramLabel = "N") int livequeryQueries = 100;
  @Option(names = "--livequery-blocks", paramLabel = "N") Integer livequeryBlocks;
  @Option(names = "--livequery-rate", paramLabel = "BLOCKS_PER_S") int livequeryRate = 1000;
  @Option(names = "--livequery-pulled", paramLabel = "N") int livequeryPulled = 1000;
  @Option(names = "--compression-blocks", paramLabel = "N") Integer compressionBlocks;
  @Option(names = "--livequery-server-subscribers", paramLabel = "N") Integer livequeryServerSubscribers;
  @Option(names = "--livequery-server-queries", paramLabel = "N") int livequeryServerQueries = 100;
  @Option(names = "--livequery-server-documents", paramLabel = "N") Integer livequeryServerDocuments;

  public static void main(String[] args) {
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    System.exit(new CommandLine(new BenchMain()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    for (int inFlight : pipelineInFlight) {
      if (inFlight < 1 || inFlight > ChildServer.APPEND_STREAM_WINDOW_CALLS) {
        throw new IllegalArgumentException("--pipeline-in-flight must be 1 to " + ChildServer.APPEND_STREAM_WINDOW_CALLS
            + " (the bench server's append-stream-window), was " + inFlight);
      }
    }
    CpuLimit cpuLimit = CpuLimit.of(serverCpus, inProcess);
    boolean temporary = dir == null;
    Path workDir = temporary ? Files.createTempDirectory("feed-bench") : Files.createDirectories(dir);
    BenchOptions options = new BenchOptions(workDir, inProcess, serverJvm, appendBatches,
        or(appendWarmup, quick ? 1 : 2), or(appendSeconds, quick ? 2 : 5),
        or(catchupBlocks, quick ? 100_000 : 1_000_000),
        or(liveBlocks, quick ? 2_000 : 10_000), or(liveWarmup, quick ? 2_000 : 30_000), liveInterval,
        or(fanoutStreams, quick ? 200 : 1_000), or(fanoutSeconds, quick ? 3 : 10), or(fanoutWarmup, quick ? 3 : 10),
        fanoutRate, fanoutBatch, or(idleStreams, quick ? 200 : 1_000), or(backlogBlocks, quick ? 20_000 : 100_000),
        null);
    ResultTable table = new ResultTable();
    Instant started = Instant.now();
    String loadBefore = loadAverage();
    int status = 0;
    try {
      if (store == Store.postgres) {
        status |= part(null, () -> new PostgresBench(options, table).run(or(pgWatchBlocks, quick ? 500 : 3_000),
            warmup != null ? warmup : quick ? 8 : 30));
      } else {
        status |= sqliteParts(options, table, cpuLimit);
      }
    } finally {
      if (temporary && !keep) {
        delete(workDir);
      }
    }
    List<String> header = List.of(
        "feed-bench " + started.truncatedTo(ChronoUnit.SECONDS) + ", took "
            + Math.round((Instant.now().toEpochMilli() - started.toEpochMilli()) / 1000.0) + " s",
        "java " + System.getProperty("java.version") + ", " + Runtime.getRuntime().availableProcessors() + " cores, "
            + System.getProperty("os.name") + " " + System.getProperty("os.arch") + ", bench max heap "
            + Math.round(Heap.mib(Heap.max())) + " MiB, server " + (inProcess ? "in this JVM" : "in a child JVM "
            + serverJvm + " on " + cpuLimit),
        "store " + store + ", parts " + (store == Store.postgres ? "pg.*" : only) + (quick ? ", --quick" : "")
            + "; load average (1, 5, 15 min) at start " + loadBefore
            + ", at end " + loadAverage() + " (other processes on the machine skew every figure)");
    table.print(System.out, header);
    if (out != null) {
      try (PrintStream file = new PrintStream(Files.newOutputStream(out), true, StandardCharsets.UTF_8)) {
        table.print(file, header);
      }
    }
    return status;
  }

  /** The SQLite parts of {@code --only}, on one server that serves them all. */
  private int sqliteParts(BenchOptions options, ResultTable table, CpuLimit cpuLimit) throws Exception {
    int status = 0;
    try (BenchServer server = BenchServer.start(options.dir().resolve("warm-up.db"), inProcess, cpuLimit, serverJvm)) {
      BenchOptions run = options.withServer(server);
      WarmUp.run(run, warmup != null ? warmup : quick ? 8 : 30);
      status |= part(Part.checksum,
          () -> new ChecksumBench(table, or(checksumBlocks, quick ? 200_000 : 2_000_000)).run());
      status |= part(Part.chain, () -> new ChainBench(table, or(chainBlocks, quick ? 200_000 : 2_000_000)).run());
      status |= part(Part.append, () -> new AppendBench(run, table).run());
      status |= part(Part.pipeline, () -> new PipelineBench(run, table, pipelineInFlight,
          or(pipelineWarmup, quick ? 2 : 8)).run());
      status |= part(Part.concurrent, () -> new ConcurrentAppendBench(run, table).run());
      status |= part(Part.catchup, () -> new CatchUpBench(run, table).run());
      status |= part(Part.live, () -> new LiveLatencyBench(run, table).run());
      status |= part(Part.backlog, () -> new BacklogBench(run, table).run());
      status |= part(Part.httpappend, () -> new HttpAppendBench(run, table).run());
      status |= part(Part.streams,
          () -> new StreamsBench(run, table, or(streamMessages, quick ? 20_000 : 100_000)).run());
      status |= part(Part.compaction, () -> new CompactionBench(run, table,
          or(compactionBlocks, quick ? 100_000 : 1_000_000)).run());
      status |= part(Part.livequery, () -> new LiveQueryBench(run, table, new LiveQueryBench.Sizes(
          or(livequeryDocuments, quick ? 20_000 : 100_000), livequeryQueries, or(livequeryBlocks, quick ? 2_000 : 10_000),
          quick ? 500 : 2_000, livequeryRate, livequeryPulled)).run());
      status |= part(Part.compression, () -> new CompressionBench(run, table,
          or(compressionBlocks, quick ? 20_000 : 100_000)).run());
      status |= part(Part.fairness, () -> new FairnessBench(table, options.dir(), or(fairnessQueries, quick ? 400 : 2_000))
          .run());
      if (only.contains(Part.idle) || only.contains(Part.fanout)) {
        status |= part(null, () -> new WatchBench(run, table).run(only.contains(Part.idle), only.contains(Part.fanout)));
      }
      if (only.contains(Part.sseidle) || only.contains(Part.ssefanout)) {
        status |= part(null, () -> new SseBench(run, table).run(only.contains(Part.sseidle),
            only.contains(Part.ssefanout)));
      }
      status |= part(Part.streamsfanout, () -> new StreamsFanoutBench(run, table).run());
      status |= part(Part.livequery_server, () -> new LiveQueryServerBench(run, table, new LiveQueryServerBench.Sizes(
          or(livequeryServerSubscribers, quick ? 200 : 1_000), livequeryServerQueries,
          or(livequeryServerDocuments, quick ? 2_000 : 5_000))).run());
    }
    return status;
  }

  @FunctionalInterface
  private interface Body {
    void run() throws Exception;
  }

  private int part(Part part, Body body) {
    if (part != null && !only.contains(part)) {
      return 0;
    }
    try {
      body.run();
      return 0;
    } catch (Exception e) {
      Progress.say("%s failed: %s", part == null ? "watch" : part, e);
      e.printStackTrace();
      return 1;
    }
  }

  /** The machine's load averages, from /proc/loadavg where there is one. */
  private static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
      return parts[0] + " " + parts[1] + " " + parts[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  private static double or(Double value, double otherwise) {
    return value != null ? value : otherwise;
  }

  private static int or(Integer value, int otherwise) {
    return value != null ? value : otherwise;
  }

  private static void delete(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }

  static String format(String pattern, Object... args) {
    return String.format(Locale.ROOT, pattern, args);
  }
}
