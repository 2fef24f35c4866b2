package dev.feedstore.server.internal;

import io.grpc.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The server's counters, call-duration histograms and gauges, rendered in the Prometheus text
 * exposition format (version 0.0.4). Labels are bounded: the five FeedSync methods and the gRPC
 * status codes; nothing is labelled by space or client.
 *
 * <p>Thread-safe; recording never blocks.
 */
public final class Metrics {
  /** Upper bounds of the call-duration buckets, in seconds. */
  static final double[] BUCKETS = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

  private final Map<String, LongAdder> calls = new ConcurrentHashMap<>();
  private final Map<String, Histogram> durations = new ConcurrentHashMap<>();
  private final LongAdder appendedPositions = new LongAdder();
  private final LongAdder watchMessages = new LongAdder();
  private final Map<String, Gauge> gauges = new TreeMap<>();

  private record Gauge(String help, LongSupplier value) {}

  /** A call of {@code method} ended with {@code code}; unary calls also tell how long they took. */
  void callEnded(String method, Status.Code code, long nanos, boolean unary) {
    calls.computeIfAbsent(method + "\u0000" + code.name(), k -> new LongAdder()).increment();
    if (unary) {
      durations.computeIfAbsent(method, k -> new Histogram()).record(nanos);
    }
  }

  /** An Append was answered with {@code positions} positions. */
  void appended(int positions) {
    appendedPositions.add(positions);
  }

  /** A Watch stream was sent one event. */
  void watchMessageSent() {
    watchMessages.increment();
  }

  /** Registers a gauge read at every scrape. Call before the first scrape. */
  public synchronized void gauge(String name, String help, LongSupplier value) {
    gauges.put(name, new Gauge(help, value));
  }

  /** Every metric in the Prometheus text format. */
  public synchronized String render() {
    StringBuilder out = new StringBuilder(4096);
    out.append("# HELP feedstore_calls_total FeedSync calls that ended, by method and gRPC status code.\n")
        .append("# TYPE feedstore_calls_total counter\n");
    for (Map.Entry<String, LongAdder> entry : new TreeMap<>(calls).entrySet()) {
      String[] key = entry.getKey().split("\u0000");
      out.append("feedstore_calls_total{method=\"").append(key[0]).append("\",code=\"").append(key[1]).append("\"} ")
          .append(entry.getValue().sum()).append('\n');
    }
    out.append("# HELP feedstore_call_duration_seconds How long unary FeedSync calls took, by method.\n")
        .append("# TYPE feedstore_call_duration_seconds histogram\n");
    for (Map.Entry<String, Histogram> entry : new TreeMap<>(durations).entrySet()) {
      entry.getValue().render(out, "feedstore_call_duration_seconds", entry.getKey());
    }
    counter(out, "feedstore_appended_positions_total",
        "Positions answered by Append calls (blocks stored, or found stored with the same content).",
        appendedPositions.sum());
    counter(out, "feedstore_watch_events_total", "Events sent on Watch streams.", watchMessages.sum());
    for (Map.Entry<String, Gauge> gauge : gauges.entrySet()) {
      out.append("# HELP ").append(gauge.getKey()).append(' ').append(gauge.getValue().help()).append('\n')
          .append("# TYPE ").append(gauge.getKey()).append(" gauge\n")
          .append(gauge.getKey()).append(' ').append(gauge.getValue().value().getAsLong()).append('\n');
    }
    return out.toString();
  }

  private static void counter(StringBuilder out, String name, String help, long value) {
    out.append("# HELP ").append(name).append(' ').append(help).append('\n')
        .append("# TYPE ").append(name).append(" counter\n")
        .append(name).append(' ').append(value).append('\n');
  }

  /** Cumulative buckets of {@link #BUCKETS}, a count and a sum. */
  private static final class Histogram {
    private final LongAdder[] buckets = new LongAdder[BUCKETS.length];
    private final LongAdder count = new LongAdder();
    private final LongAdder sumNanos = new LongAdder();

    Histogram() {
      for (int i = 0; i < buckets.length; i++) {
        buckets[i] = new LongAdder();
      }
    }

    void record(long nanos) {
      double seconds = nanos / 1e9;
      for (int i = 0; i < BUCKETS.length; i++) {
        if (seconds <= BUCKETS[i]) {
          buckets[i].increment();
          break;
        }
      }
      count.increment();
      sumNanos.add(nanos);
    }

    void render(StringBuilder out, String name, String method) {
      long total = count.sum();
      List<Long> cumulative = new ArrayList<>();
      long running = 0;
      for (LongAdder bucket : buckets) {
        running += bucket.sum();
        cumulative.add(Math.min(running, total));
      }
      for (int i = 0; i < BUCKETS.length; i++) {
        out.append(name).append("_bucket{method=\"").append(method).append("\",le=\"").append(BUCKETS[i])
            .append("\"} ").append(cumulative.get(i)).append('\n');
      }
      out.append(name).append("_bucket{method=\"").append(method).append("\",le=\"+Inf\"} ").append(total).append('\n')
          .append(name).append("_sum{method=\"").append(method).append("\"} ").append(sumNanos.sum() / 1e9).append('\n')
          .append(name).append("_count{method=\"").append(method).append("\"} ").append(total).append('\n');
    }
  }
}
