package dev.feedstore.server.internal.access;

import static dev.feedstore.server.settings.ServerSettings.PRINCIPAL_APPEND_BYTES_PER_SECOND;
import static dev.feedstore.server.settings.ServerSettings.PRINCIPAL_REQUESTS_PER_SECOND;
import static dev.feedstore.server.settings.ServerSettings.PRINCIPAL_STREAMS;

import dev.feedstore.server.internal.errors.RateLimitedException;
import dev.feedstore.server.internal.monitoring.ServerMetrics;
import dev.feedstore.server.settings.ServerSettings;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * What each principal ({@link Caller#principal}) may use, so that one client cannot starve the
 * others: requests per second ({@code principal-requests-per-second}), bytes of block data appended
 * per second ({@code principal-append-bytes-per-second}), and open live streams ({@code
 * principal-streams}), the same for gRPC and HTTP. Rates are token buckets that hold one second's
 * worth: a burst up to the rate passes at once, a steady flow at the rate passes, and more is
 * refused with a {@link RateLimitedException} that says when the same request would pass. A refusal
 * costs no store access: it is decided before the request is read further.
 *
 * <p>Memory: a principal that has been quiet for a while is forgotten ({@link #forgetIdle}, run
 * every heartbeat), so the table holds only recent callers.
 *
 * <p>Thread-safe.
 */
public final class PrincipalLimits {
  private final ServerSettings settings;
  private final LongSupplier nanos;
  private final ServerMetrics metrics;
  private final Map<String, Usage> usage = new ConcurrentHashMap<>();

  /** What one principal has used. Guarded by itself. */
  private static final class Usage {
    final Bucket requests;
    final Bucket bytes;
    int streams;

    Usage(ServerSettings settings, long now) {
      requests = new Bucket(settings.get(PRINCIPAL_REQUESTS_PER_SECOND), now);
      bytes = new Bucket(settings.get(PRINCIPAL_APPEND_BYTES_PER_SECOND), now);
    }
  }

  /** A token bucket of {@code rate} tokens a second, holding at most one second's worth. */
  private static final class Bucket {
    private final double rate;
    private double tokens;
    private long updated;

    Bucket(long rate, long now) {
      this.rate = rate;
      this.tokens = rate;
      this.updated = now;
    }

    /** Takes {@code n} tokens and returns 0, or takes none and returns the nanoseconds until it could. */
    long take(double n, long now) {
      refill(now);
      // A request larger than a whole second's worth passes when the bucket is full, leaving a debt.
      double needed = Math.min(n, rate);
      if (tokens >= needed) {
        tokens -= n;
        return 0;
      }
      return (long) Math.ceil((needed - tokens) / rate * 1e9);
    }

    boolean full(long now) {
      refill(now);
      return tokens >= rate;
    }

    private void refill(long now) {
      tokens = Math.min(rate, tokens + (now - updated) / 1e9 * rate);
      updated = now;
    }
  }

  public PrincipalLimits(ServerSettings settings, LongSupplier nanos, ServerMetrics metrics) {
    this.settings = settings;
    this.nanos = nanos;
    this.metrics = metrics;
  }

  /**
   * Admits one request of {@code principal}.
   *
   * @throws RateLimitedException over {@code principal-requests-per-second}
   */
  public void admitRequest(String principal) {
    take(principal, false, 1, PRINCIPAL_REQUESTS_PER_SECOND.name(),
        settings.get(PRINCIPAL_REQUESTS_PER_SECOND), principal + " sent more requests than that in the last second");
  }

  /**
   * Admits an append of {@code bytes} bytes of block data by {@code principal}.
   *
   * @throws RateLimitedException over {@code principal-append-bytes-per-second}
   */
  public void admitAppend(String principal, long bytes) {
    take(principal, true, bytes, PRINCIPAL_APPEND_BYTES_PER_SECOND.name(),
        settings.get(PRINCIPAL_APPEND_BYTES_PER_SECOND),
        principal + " would append more block data than that in one second"
            + " with this append of " + bytes + " bytes");
  }

  /**
   * Counts one more open stream of {@code principal}; {@link #closeStream} gives it back.
   *
   * @throws RateLimitedException over {@code principal-streams}
   */
  public void openStream(String principal) {
    Usage used = usage.computeIfAbsent(principal, k -> new Usage(settings, nanos.getAsLong()));
    synchronized (used) {
      if (used.streams >= settings.get(PRINCIPAL_STREAMS)) {
        metrics.limited(PRINCIPAL_STREAMS.name());
        throw new RateLimitedException(PRINCIPAL_STREAMS.name(), settings.get(PRINCIPAL_STREAMS),
            used.streams + 1L, principal + " has " + used.streams + " live streams open (gRPC Watch and"
            + " Server-Sent Events): close one first", TimeUnit.SECONDS.toMillis(1));
      }
      used.streams++;
    }
  }

  /** Gives back a stream of {@link #openStream}. */
  public void closeStream(String principal) {
    Usage used = usage.get(principal);
    if (used != null) {
      synchronized (used) {
        used.streams--;
      }
    }
  }

  /** How many live streams {@code principal} has open. */
  public int openStreams(String principal) {
    Usage used = usage.get(principal);
    if (used == null) {
      return 0;
    }
    synchronized (used) {
      return used.streams;
    }
  }

  /** Forgets principals with no open stream whose buckets are full again: they used nothing for a second. */
  public void forgetIdle() {
    long now = nanos.getAsLong();
    usage.entrySet().removeIf(entry -> {
      Usage used = entry.getValue();
      synchronized (used) {
        return used.streams == 0 && used.requests.full(now) && used.bytes.full(now);
      }
    });
  }

  /** How many principals are remembered now. */
  int remembered() {
    return usage.size();
  }

  private void take(String principal, boolean bytes, long amount, String key, long limit, String what) {
    long now = nanos.getAsLong();
    while (true) {
      Usage used = usage.computeIfAbsent(principal, k -> new Usage(settings, now));
      long wait;
      synchronized (used) {
        if (usage.get(principal) != used) {
          continue; // forgotten meanwhile: count on the principal's new entry
        }
        wait = (bytes ? used.bytes : used.requests).take(amount, now);
      }
      if (wait == 0) {
        return;
      }
      metrics.limited(key);
      throw new RateLimitedException(key, limit, limit + (bytes ? amount : 1), what,
          Math.max(1, TimeUnit.NANOSECONDS.toMillis(wait)));
    }
  }
}
