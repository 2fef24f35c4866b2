package dev.feedstore.bench;

import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * What live streams cost, whatever their transport. Idle: the server's heap with the streams open,
 * minus before, per stream. Fan-out: one client appends at a fixed rate, each block carrying the
 * time it was due, and the streams record how late each block reached them. Not thread-safe; one
 * run at a time.
 */
final class StreamMeasure {
  /** The prefix of the Watch fan-out's rows, the baseline of the other transports' CPU per delivery. */
  static final String WATCH = "fanout";

  /** The longest delay a fan-out case tells apart: a minute, the time it waits for the last deliveries. */
  static final long MAX_DELAY_MICROS = TimeUnit.SECONDS.toMicros(60);

  private StreamMeasure() {}

  /** A recorder of delivery delays up to {@link #MAX_DELAY_MICROS}. */
  static Recorder delays() {
    return new Recorder(MAX_DELAY_MICROS, 3);
  }

  /**
   * Records that a block due at {@code due} arrived at {@code now} (both {@link System#nanoTime}): a
   * delay past {@link #MAX_DELAY_MICROS} as that, so that a stream far behind is measured as far
   * behind instead of failing the histogram (and with it the stream that reads it).
   */
  static void delivered(Recorder recorder, long due, long now) {
    delivered(recorder, due, now, 1);
  }

  /** {@link #delivered(Recorder, long, long)} of {@code count} blocks due at {@code due} that arrived together. */
  static void delivered(Recorder recorder, long due, long now, long count) {
    recorder.recordValueWithCount(Math.min(MAX_DELAY_MICROS, Math.max(0, TimeUnit.NANOSECONDS.toMicros(now - due))),
        count);
  }

  /**
   * Adds the rows {@code PREFIX.heap_per_stream} and {@code PREFIX.server_heap}: the server's heap
   * after GC now, with {@code count} caught-up streams open, against {@code before}.
   */
  static void idle(ResultTable table, BenchServer server, String prefix, int count, long before, String streams) {
    long after = server.usedHeapAfterGc();
    double perStream = (after - before) / (double) count / 1024.0;
    table.add(prefix + ".heap_per_stream", perStream, "KiB", ResultTable.Target.atMost(50, "KiB"));
    table.add(prefix + ".server_heap", Heap.mib(after), "MiB");
    table.note(prefix + ".*: server heap after GC with " + count + " caught-up " + streams + " minus before, per"
        + " stream; and in all");
    Progress.say("%s: %d streams, server heap %.1f -> %.1f MiB, %.1f KiB per stream", prefix, count,
        Heap.mib(before), Heap.mib(after), perStream);
  }

  /**
   * Appends {@code options.fanoutRate()} blocks a second in batches while the streams receive them,
   * and adds the rows {@code PREFIX.p50} ... {@code PREFIX.undelivered}, the server's heap, and its
   * CPU per delivery (beside a Watch delivery's, {@code fanout.server_cpu_per_delivery}, when the
   * Watch case ran before in the same run).
   *
   * @param delivered how many blocks each stream has received so far
   * @param recorder where the streams record each block's delay (microseconds)
   * @param streams what the streams are, for the note
   */
  static void fanout(BenchOptions options, ResultTable table, BenchServer server, FanoutAppender appender,
      List<LongSupplier> delivered, Recorder recorder, String prefix, String streams) throws Exception {
    int batch = options.fanoutBatch();
    long period = TimeUnit.SECONDS.toNanos(1) * batch / options.fanoutRate();
    ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
    long[] counts = delivered.stream().mapToLong(LongSupplier::getAsLong).toArray();
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
      for (int i = 0; i < delivered.size(); i++) {
        missing += Math.max(0, expected - (delivered.get(i).getAsLong() - counts[i]));
      }
      if (missing > 0) {
        Thread.sleep(20);
      }
    } while (missing > 0 && System.nanoTime() < deadline);
    Histogram histogram = recorder.getIntervalHistogram();
    Histogram acks = appender.acks.getIntervalHistogram();
    double elapsed = (System.nanoTime() - cpuAtStart[2]) / 1e9;
    long serverCpu = server.cpuNanos() - cpuAtStart[0];
    double serverCores = serverCpu / 1e9 / elapsed;
    long benchCpu = Heap.processCpuNanos() - cpuAtStart[1];
    double clientCores = benchCpu / 1e9 / elapsed;
    long[] peaks = server.peaks();
    long heapAfter = server.usedHeapAfterGc();
    if (appender.failures.get() > 0) {
      throw new IllegalStateException(appender.failures.get() + " appends failed during fan-out");
    }
    table.add(prefix + ".p50", histogram.getValueAtPercentile(50) / 1000.0, "ms");
    table.add(prefix + ".p99", histogram.getValueAtPercentile(99) / 1000.0, "ms", ResultTable.Target.atMost(50, "ms"));
    table.add(prefix + ".p99.9", histogram.getValueAtPercentile(99.9) / 1000.0, "ms");
    table.add(prefix + ".max", histogram.getMaxValue() / 1000.0, "ms");
    table.add(prefix + ".undelivered", missing, "blocks", ResultTable.Target.atMost(0, "blocks"));
    long deliveries = histogram.getTotalCount();
    double cpuPerDelivery = deliveries == 0 ? 0 : serverCpu / 1000.0 / deliveries;
    OptionalDouble watch = prefix.equals(WATCH) ? OptionalDouble.empty()
        : table.value(WATCH + ".server_cpu_per_delivery");
    if (watch.isPresent()) {
      // Measured in the same run: a delivery over another transport costs the server no more than a Watch's.
      table.add(prefix + ".server_cpu_per_delivery", cpuPerDelivery, "us", watch.getAsDouble(),
          ResultTable.Target.atMostRatio(1));
    } else {
      table.add(prefix + ".server_cpu_per_delivery", cpuPerDelivery, "us");
    }
    table.add(prefix + ".bench_cpu_per_delivery", deliveries == 0 ? 0 : benchCpu / 1000.0 / deliveries, "us");
    table.add(prefix + ".server_heap_after_gc", Heap.mib(heapAfter), "MiB");
    table.add(prefix + ".server_heap_peak_after_gc", Heap.mib(peaks[1]), "MiB");
    table.add(prefix + ".server_heap_peak_used", Heap.mib(peaks[0]), "MiB");
    table.note(prefix + ".*: " + streams + " on one space while"
        + " one client appends " + options.fanoutRate() + " blocks/s in batches of " + batch + " (" + options.fanoutSeconds()
        + " s measured after " + options.fanoutWarmupSeconds() + " s); delay from when an append was due to when each"
        + " stream receives its blocks (" + histogram.getTotalCount() + " deliveries); server heap after GC at the end"
        + " with the streams open, and its peaks while measuring; the server process's CPU time from the end of the"
        + " warm-up until every block was delivered (appends included) per delivered (block, stream), and the"
        + " benchmark's own (its readers and the appender, on the same cores) in the same window");
    Progress.say(prefix + ": p50 %.1f ms, p99 %.1f ms, max %.1f ms, %d undelivered, server heap %.1f MiB (peak after GC"
            + " %.1f); CPU while measuring: server %.2f cores (%.2f us per delivery), watchers' JVM %.2f cores; append answered p50 %.1f ms,"
            + " p99 %.1f ms after it was due",
        histogram.getValueAtPercentile(50) / 1000.0, histogram.getValueAtPercentile(99) / 1000.0,
        histogram.getMaxValue() / 1000.0, missing, Heap.mib(heapAfter), Heap.mib(peaks[1]), serverCores, cpuPerDelivery, clientCores,
        acks.getValueAtPercentile(50) / 1000.0, acks.getValueAtPercentile(99) / 1000.0);
  }
}
