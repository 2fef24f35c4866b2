package dev.feedstore.core;

/**
 * A request went over a configured limit. The message names the limit's configuration key, its
 * value and what was asked for, e.g. {@code "block-bytes limit is 1048576, data of block ... has
 * 2000000"}. Nothing has been changed when it is thrown.
 */
public final class LimitExceededException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** The configuration key of the limit. */
  private final String limitKey;
  /** The limit's configured value. */
  private final long limit;
  /** What the request asked for, in the limit's unit. */
  private final long actual;

  /**
   * {@code what} (e.g. {@code "blocks in one append"}) has {@code actual}, more than the limit {@code limitKey}
   * allows ({@code limit}); the message says so and how to fix it.
   */
  public LimitExceededException(String limitKey, long limit, long actual, String what) {
    super(limitKey + " limit is " + limit + ", " + what + " has " + actual
        + " (raise the " + limitKey + " setting or send less)");
    this.limitKey = limitKey;
    this.limit = limit;
    this.actual = actual;
  }

  /** The configuration key of the limit, e.g. {@code block-bytes}. */
  public String limitKey() {
    return limitKey;
  }

  /** The limit's configured value, in its unit (bytes, blocks). */
  public long limit() {
    return limit;
  }

  /** What the request asked for, in the limit's unit: always more than {@link #limit()}. */
  public long actual() {
    return actual;
  }
}
