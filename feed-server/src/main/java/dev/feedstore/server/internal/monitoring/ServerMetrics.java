package dev.feedstore.server.internal.monitoring;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * The server's meters in a Micrometer registry, rendered in the Prometheus text format: calls by
 * transport, method and code, durations of unary calls, appended positions, events sent on live
 * streams, refusals by per-principal limits, and gauges. gRPC and HTTP count the same way: a call
 * is named by its FeedSync method ({@code Append}, {@code Query}, {@code Watch}, ...) and ends with
 * a gRPC status code name (for HTTP, the code its status was mapped from). Labels are bounded:
 * nothing is labelled by space, client or principal.
 *
 * <p>Thread-safe; recording never blocks.
 */
public final class ServerMetrics {
  /** The content type of {@link #scrape}: the Prometheus text format, version 0.0.4. */
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
  /** Upper bounds of the call-duration buckets. */
  private static final Duration[] BUCKETS = {Duration.ofMillis(0).plusNanos(500_000), Duration.ofMillis(1),
      Duration.ofNanos(2_500_000), Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
      Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
      Duration.ofSeconds(1), Duration.ofMillis(2_500), Duration.ofSeconds(5), Duration.ofSeconds(10)};

  /** The transports, as the {@code transport} label names them. */
  public static final String GRPC = "grpc";
  public static final String HTTP = "http";

  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Counter appendedPositions = Counter.builder("feedstore.appended.positions")
      .description("Positions answered by Append calls (blocks stored, or found stored with the same content).")
      .register(registry);
  /** Meters by their labels, so that recording (100,000 events a second in fan-out) allocates nothing. */
  private final Map<String, Counter> calls = new ConcurrentHashMap<>();
  private final Map<String, Timer> durations = new ConcurrentHashMap<>();
  private final Map<String, Counter> events = new ConcurrentHashMap<>();
  private final Map<String, Counter> refusals = new ConcurrentHashMap<>();

  /** A call of {@code method} on {@code transport} ended with {@code code}; unary calls also tell how long they took. */
  public void callEnded(String transport, String method, String code, long nanos, boolean unary) {
    calls.computeIfAbsent(transport + ' ' + method + ' ' + code, k -> Counter.builder("feedstore.calls")
        .description("FeedSync calls that ended, by transport, method and status code.")
        .tags("transport", transport, "method", method, "code", code)
        .register(registry)).increment();
    if (unary) {
      durations.computeIfAbsent(transport + ' ' + method, k -> Timer.builder("feedstore.call.duration")
          .description("How long unary FeedSync calls took, by transport and method.")
          .tags("transport", transport, "method", method)
          .serviceLevelObjectives(BUCKETS)
          .register(registry)).record(nanos, TimeUnit.NANOSECONDS);
    }
  }

  /** An Append was answered with {@code positions} positions. */
  public void appended(int positions) {
    appendedPositions.increment(positions);
  }

  /** A live stream on {@code transport} was sent one event. */
  public void eventSent(String transport) {
    events.computeIfAbsent(transport, k -> Counter.builder("feedstore.watch.events")
        .description("Events sent on live streams (gRPC Watch and Server-Sent Events), by transport.")
        .tag("transport", transport)
        .register(registry)).increment();
  }

  /** A call was refused by the per-principal limit {@code limitKey}. */
  public void limited(String limitKey) {
    refusals.computeIfAbsent(limitKey, k -> Counter.builder("feedstore.principal.refusals")
        .description("Calls refused by a per-principal limit, by the limit's setting.")
        .tag("limit", limitKey)
        .register(registry)).increment();
  }

  /**
   * Registers a counter whose total is read from {@code source} at every scrape. The registry holds
   * {@code source} weakly: the caller keeps it reachable for as long as the counter should count.
   */
  public <T> void counter(String name, String help, T source, ToDoubleFunction<T> total) {
    FunctionCounter.builder(name, source, total).description(help).register(registry);
  }

  /** Registers a gauge read at every scrape. */
  public void gauge(String name, String help, Supplier<Number> value) {
    Gauge.builder(name, value).description(help).register(registry);
  }

  /** Every meter in the Prometheus text format ({@link #CONTENT_TYPE}). */
  public String scrape() {
    return registry.scrape();
  }
}
