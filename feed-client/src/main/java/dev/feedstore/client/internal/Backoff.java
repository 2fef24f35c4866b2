package dev.feedstore.client.internal;

import java.time.Duration;
import java.util.Random;

/**
 * Exponential backoff with jitter: the n-th delay is drawn from {@code [d/2, d]} with {@code d =
 * min(max, initial * 2^n)}, so that many clients that lost the same server do not return in step.
 * Not thread-safe.
 */
public final class Backoff {
  private final long initialMillis;
  private final long maxMillis;
  private final Random random;
  private int attempt;

  public Backoff(Duration initial, Duration max, Random random) {
    if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
      throw new IllegalArgumentException("backoff needs 0 < initial <= max, got " + initial + " and " + max);
    }
    this.initialMillis = initial.toMillis();
    this.maxMillis = max.toMillis();
    this.random = random;
  }

  /** The delay before the next attempt. */
  public Duration next() {
    long ceiling = initialMillis << Math.min(attempt, 30);
    if (ceiling <= 0 || ceiling > maxMillis) {
      ceiling = maxMillis;
    }
    attempt++;
    long half = ceiling / 2;
    return Duration.ofMillis(half + (half > 0 ? random.nextLong(half + 1) : 0));
  }

  /** After a success: the next failure starts from the initial delay again. */
  public void reset() {
    attempt = 0;
  }
}
