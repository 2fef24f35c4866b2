package dev.feedstore.core;

/**
 * A request went over a configured limit. The message names the limit's configuration key, its
 * value and what was asked for, e.g. {@code "block-bytes limit is 1048576, data of block ... has
 * 2000000"}. Nothing has been changed when it is thrown.
 */
public final class LimitExceededException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String limitKey;
  private final long limit;
  private final long actual;

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

  public long limit() {
    return limit;
  }

  public long actual() {
    return actual;
  }
}
