package dev.feedstore.bench;

import dev.feedstore.client.FeedUpdate;
import dev.feedstore.client.LiveQueryEvent;
import dev.feedstore.client.LiveQueryRegistration;
import dev.feedstore.client.Registration;
import dev.feedstore.client.Replica;
import dev.feedstore.client.internal.ClientAccess;
import dev.feedstore.client.internal.GrpcAuthority;
import dev.feedstore.core.ActorId;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Replication;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.json.JsonNumber;
import dev.feedstore.core.json.JsonObject;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.Row;
import dev.feedstore.core.query.result.RowUpdate;
import dev.feedstore.core.sync.SyncStep;
import io.grpc.ManagedChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * Live queries on a replica beside plain {@code listen}, in the same run, over the same file: a
 * replica holds {@code documents} task documents (keyed by {@code /id}) in one namespace; {@code
 * queries} registrations follow it, each either a live query of its own filter (selecting 1 % to 20 %
 * of the documents, every fourth ordered with a limit of 50) or, for the baseline, a {@code listen}
 * to the same namespace. Measured for each: the latency from a local append returning to a listener
 * holding the change, with appends of one block at {@code rate} blocks/s (each a new version of a
 * random document); a pulled batch of {@code pulled} blocks, from the pull's commit to the last
 * listener told; and for live queries, the snapshot of a query matching a tenth of the documents, and
 * the heap each open query holds. The replicas run in this JVM; the authority in its own.
 */
final class LiveQueryBench {
  private static final SpaceId SPACE = SpaceId.of("livequery");
  private static final Namespace TASKS = Namespace.of("tasks");
  private static final Duration WAIT = Duration.ofMinutes(5);

  /** The sizes of a run. */
  record Sizes(int documents, int queries, int blocks, int warmupBlocks, int rate, int pulled) {}

  /** What one kind of listener measured. */
  private record Measured(Histogram latency, double pulledMillis) {}

  private final BenchOptions options;
  private final ResultTable table;
  private final Sizes sizes;
  private final Random random = new Random(42);
  private int written;

  LiveQueryBench(BenchOptions options, ResultTable table, Sizes sizes) {
    this.options = options;
    this.table = table;
    this.sizes = sizes;
  }

  void run() throws Exception {
    BenchServer server = options.server().reopen(options.dir().resolve("livequery-authority.db"));
    ManagedChannel channel = server.channel();
    try (Replica alice = Replica.builder(options.dir().resolve("livequery-a.db")).actorId(ActorId.of("alice"))
            .syncBatches(sizes.pulled(), 500).build();
        Replica bob = Replica.open(options.dir().resolve("livequery-b.db"), ActorId.of("bob"))) {
      GrpcAuthority authority = new GrpcAuthority(channel);
      FeedId local = alice.createFeed(SPACE, Optional.of(TASKS), Replication.NONE);
      long filled = System.nanoTime();
      for (int id = 0; id < sizes.documents(); id += 1_000) {
        List<BlockData> batch = new ArrayList<>();
        for (int i = id; i < Math.min(sizes.documents(), id + 1_000); i++) {
          batch.add(task(i));
        }
        alice.append(SPACE, local, batch);
      }
      Progress.say("livequery: %d documents written in %.1f s", sizes.documents(), (System.nanoTime() - filled) / 1e9);
      FeedId shared = bob.createFeed(SPACE, Optional.of(TASKS), Replication.fullHistory());
      alice.replicate(SPACE, shared, Optional.of(TASKS), Replication.fullHistory());

      Measured listen = listenBaseline(alice, local, bob, shared, authority);
      long heapBefore = Heap.usedAfterGc();
      LiveMeasure live = new LiveMeasure();
      List<LiveQueryRegistration> registrations = new ArrayList<>();
      long registered = System.nanoTime();
      for (int q = 0; q < sizes.queries(); q++) {
        registrations.add(alice.liveQuery(query(q), live::told));
      }
      await(registrations.get(0));
      Progress.say("livequery: %d queries registered, snapshots told in %.1f s", sizes.queries(),
          (System.nanoTime() - registered) / 1e9);
      Histogram latency = appendAtRate(alice, local, live.recorder, () -> await(registrations.get(0)));
      double pulled = pulledBatch(bob, shared, alice, authority, () -> await(registrations.get(0)));
      // After the latencies, as listen's are taken without one: the full collections it asks for
      // shrink the heap, and the small young generation that follows collects far more often.
      long heapPerQuery = (Heap.usedAfterGc() - heapBefore) / sizes.queries();
      registrations.forEach(Registration::close);
      double snapshot = snapshot(alice);
      report(listen, new Measured(latency, pulled), snapshot, heapPerQuery);
    } finally {
      BenchServer.shutdown(channel);
    }
  }

  /** Plain listeners of the namespace, one per query: each is told every block. */
  private Measured listenBaseline(Replica alice, FeedId local, Replica bob, FeedId shared, GrpcAuthority authority)
      throws Exception {
    LatencyRecorder recorder = new LatencyRecorder();
    CountDownLatch[] told = {new CountDownLatch(0)};
    List<Registration> registrations = new ArrayList<>();
    CountDownLatch initial = new CountDownLatch(sizes.queries());
    for (int q = 0; q < sizes.queries(); q++) {
      registrations.add(alice.listen(SPACE, Scope.namespace(TASKS), update -> {
        long now = System.nanoTime();
        if (update.initial()) {
          initial.countDown();
          return;
        }
        for (Block block : blocks(update)) {
          recorder.told(seq(block.data()), now);
          told[0].countDown();
        }
      }));
    }
    if (!initial.await(WAIT.toSeconds(), TimeUnit.SECONDS)) {
      throw new IllegalStateException("the listeners were not told the feeds within " + WAIT);
    }
    told[0] = new CountDownLatch(sizes.queries() * (sizes.warmupBlocks() + sizes.blocks()));
    Histogram latency = appendAtRate(alice, local, recorder, () -> awaitLatch(told[0]));
    told[0] = new CountDownLatch(sizes.queries() * sizes.pulled());
    double pulled = pulledBatch(bob, shared, alice, authority, () -> awaitLatch(told[0]));
    registrations.forEach(Registration::close);
    return new Measured(latency, pulled);
  }

  /**
   * Appends {@code warmupBlocks + blocks} versions of random documents, one a block, at the rate;
   * returns the latencies from each append returning to each listener told, of the measured ones.
   */
  private Histogram appendAtRate(Replica alice, FeedId local, LatencyRecorder recorder, Runnable awaitTold) {
    int total = sizes.warmupBlocks() + sizes.blocks();
    long interval = TimeUnit.SECONDS.toNanos(1) / sizes.rate();
    int first = written;
    recorder.start(first + sizes.warmupBlocks(), first + total);
    long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
    for (int i = 0; i < total; i++) {
      long at = start + i * interval;
      long wait;
      while ((wait = at - System.nanoTime()) > 0) {
        LockSupport.parkNanos(wait);
      }
      int seq = written;
      alice.append(SPACE, local, task(random.nextInt(sizes.documents())));
      recorder.appended(seq, System.nanoTime());
    }
    Progress.say("livequery: %d blocks appended in %.1f s (due %.1f s)", total, (System.nanoTime() - start) / 1e9,
        total * interval / 1e9);
    awaitTold.run();
    synchronized (recorder.histogram) {
      return recorder.histogram.copy();
    }
  }

  /** Bob writes a batch of versions and pushes it; Alice pulls it in one step: from its commit to the last listener told. */
  private double pulledBatch(Replica bob, FeedId shared, Replica alice, GrpcAuthority authority, Runnable awaitTold) {
    List<BlockData> batch = new ArrayList<>();
    for (int i = 0; i < sizes.pulled(); i++) {
      batch.add(task(random.nextInt(sizes.documents())));
    }
    bob.append(SPACE, shared, batch);
    while (ClientAccess.get().sync(bob, SPACE).pushStep(authority).kind() == SyncStep.Kind.PUSHED) {
      // until every block is positioned
    }
    SyncStep step = ClientAccess.get().sync(alice, SPACE).pullStep(authority);
    long committed = System.nanoTime();
    if (step.kind() != SyncStep.Kind.PULLED || step.blocks() != sizes.pulled()) {
      throw new IllegalStateException("one pull was to store " + sizes.pulled() + " blocks: " + step);
    }
    awaitTold.run();
    return (System.nanoTime() - committed) / 1e6;
  }

  /** The time from registering a query that matches a tenth of the documents to its snapshot, median of three. */
  private double snapshot(Replica alice) throws Exception {
    List<Double> took = new ArrayList<>();
    int rows = 0;
    for (int run = 0; run < 3; run++) {
      CountDownLatch told = new CountDownLatch(1);
      long[] at = new long[1];
      int[] size = new int[1];
      long started = System.nanoTime();
      try (LiveQueryRegistration registration = alice.liveQuery(
          LiveQuery.parse("namespace:tasks key:/id where /g < 10", SPACE), event -> {
            at[0] = System.nanoTime();
            size[0] = ((LiveQueryEvent.Snapshot) event).rows().size();
            told.countDown();
          })) {
        awaitLatch(told);
        took.add((at[0] - started) / 1e6);
        rows = size[0];
      }
    }
    took.sort(Double::compare);
    Progress.say("livequery: snapshots of %d rows in %s ms", rows, took);
    return took.get(1);
  }

  private void report(Measured listen, Measured live, double snapshot, long heapPerQuery) {
    double listenP50 = listen.latency().getValueAtPercentile(50) / 1000.0;
    double listenP99 = listen.latency().getValueAtPercentile(99) / 1000.0;
    table.add("livequery.listen.p50", listenP50, "ms");
    table.add("livequery.listen.p99", listenP99, "ms");
    table.add("livequery.append.p50", live.latency().getValueAtPercentile(50) / 1000.0, "ms", listenP50,
        ResultTable.Target.atMostRatio(2));
    table.add("livequery.append.p99", live.latency().getValueAtPercentile(99) / 1000.0, "ms", listenP99,
        ResultTable.Target.atMostRatio(2));
    table.add("livequery.pull_" + sizes.pulled(), live.pulledMillis(), "ms", listen.pulledMillis(),
        ResultTable.Target.NONE);
    table.add("livequery.snapshot_10pct", snapshot, "ms");
    table.add("livequery.heap_per_query", heapPerQuery / 1024.0, "KiB");
    table.note("livequery.*: one replica holds " + sizes.documents() + " documents keyed by /id in one namespace and "
        + sizes.queries() + " registrations follow it: live queries of different filters selecting 1 % to 20 % (every"
        + " fourth ordered by /prio with a limit of 50), or, as the baseline (livequery.listen.*, and the baseline of"
        + " the pull), listen registrations of the same namespace; append.*: " + sizes.blocks() + " appends of one"
        + " block (a new version of a random document) at " + sizes.rate() + " blocks/s after " + sizes.warmupBlocks()
        + " warm-up ones, latency from the append returning to each listener told of it (0 for one told before it"
        + " returned); pull_N: a pulled batch of N blocks, from its commit to the last listener told; snapshot_10pct: registering a query matching a tenth"
        + " of the documents until its snapshot is told (median of 3); heap_per_query: heap after GC with the queries"
        + " open (taken after the appends and the pull, so that its full collections precede neither latency) less"
        + " before, per query");
  }

  /** A new version of document {@code id}: its group ({@code /g}, 0-99) and priority drawn at random. */
  private BlockData task(int id) {
    int seq = written++;
    return BlockData.utf8("{\"id\":" + id + ",\"g\":" + (id % 100 == 0 ? 0 : random.nextInt(100)) + ",\"prio\":"
        + random.nextInt(1000) + ",\"done\":false,\"seq\":" + seq + "}");
  }

  /** Query {@code q}: documents whose group is in a range of 1 to 20 groups of 100; every fourth the first 50 by priority. */
  private static LiveQuery query(int q) {
    int width = 1 + q % 20;
    int from = (q * 7) % (100 - width);
    return LiveQuery.parse("namespace:tasks key:/id where /g >= " + from + " and /g < " + (from + width)
        + (q % 4 == 3 ? " order /prio desc limit 50" : ""), SPACE);
  }

  /** The blocks an update tells, the changed ones. */
  private static List<Block> blocks(FeedUpdate update) {
    List<Block> blocks = new ArrayList<>();
    update.changes().values().forEach(blocks::addAll);
    return blocks;
  }

  /** The {@code seq} of a block this benchmark wrote (the last member of its content). */
  private static int seq(BlockData data) {
    String text = data.toStringUtf8();
    int at = text.lastIndexOf("\"seq\":");
    return Integer.parseInt(text.substring(at + 6, text.length() - 1));
  }

  private static void await(LiveQueryRegistration registration) {
    try {
      if (!registration.awaitCurrent(WAIT)) {
        throw new IllegalStateException("the live queries were not told every commit within " + WAIT);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static void awaitLatch(CountDownLatch latch) {
    try {
      if (!latch.await(WAIT.toSeconds(), TimeUnit.SECONDS)) {
        throw new IllegalStateException("the listeners were not told every block within " + WAIT + ": "
            + latch.getCount() + " tellings missing");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Latencies from an append returning to a listener told of it. Thread-safe enough: one appender, one listener thread. */
  private static final class LatencyRecorder {
    /** Guarded by itself, as are {@link #returned} and {@link #early}. */
    private final Histogram histogram = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
    private long[] returned = new long[0];
    /** Listeners told of a block before its append returned, per block: recorded as 0 once it returns. */
    private int[] early = new int[0];
    private volatile int from;
    private volatile int base;

    /** Measures the blocks {@code [from, to)} of this phase. */
    void start(int from, int to) {
      synchronized (histogram) {
        this.base = Math.min(from, to);
        this.returned = new long[to - base + 1];
        this.early = new int[to - base + 1];
        this.from = from;
      }
    }

    void appended(int seq, long at) {
      synchronized (histogram) {
        int index = seq - base;
        if (index >= 0 && index < returned.length) {
          returned[index] = at;
          if (seq >= from && early[index] > 0) {
            histogram.recordValueWithCount(0, early[index]);
            early[index] = 0;
          }
        }
      }
    }

    /**
     * A listener was told of block {@code seq} at {@code now} (listener thread); told before the
     * append returned, it counts as no delay, once the append returns.
     */
    void told(int seq, long now) {
      synchronized (histogram) {
        int index = seq - base;
        if (seq < from || index >= returned.length) {
          return;
        }
        long at = returned[index];
        if (at != 0) {
          histogram.recordValue(Math.max(0, TimeUnit.NANOSECONDS.toMicros(now - at)));
        } else {
          early[index]++;
        }
      }
    }
  }

  /** What live queries' listeners are told: the rows of a new version carry its {@code seq}. */
  private static final class LiveMeasure {
    final LatencyRecorder recorder = new LatencyRecorder();

    void told(LiveQueryEvent event) {
      if (!(event instanceof LiveQueryEvent.Changes changes)) {
        return;
      }
      long now = System.nanoTime();
      changes.changes().entered().forEach(row -> recorder.told(seq(row), now));
      changes.changes().updated().stream().map(RowUpdate::current).forEach(row -> recorder.told(seq(row), now));
    }

    private static int seq(Row row) {
      return (int) ((JsonNumber) ((JsonObject) row.content().orElseThrow()).get("seq")).longValueExact().orElseThrow();
    }
  }
}
