package dev.feedstore.server.internal.errors;

/**
 * A caller went over one of its per-principal rates ({@code principal-requests-per-second}, {@code
 * principal-append-bytes-per-second}) or its open streams ({@code principal-streams}). The message
 * names the setting, its value and the principal; {@link #retryAfterMillis} says when the same
 * request would pass. Nothing has been done when it is thrown.
 */
public final class RateLimitedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String limitKey;
  private final long limit;
  private final long actual;
  private final long retryAfterMillis;

  /**
   * @param actual what the caller would have used with this request
   * @param situation what the caller did, naming it
   */
  public RateLimitedException(String limitKey, long limit, long actual, String situation, long retryAfterMillis) {
    super(limitKey + " limit is " + limit + ": " + situation + "; retry in " + retryAfterMillis
        + " ms (the server's " + limitKey + " setting bounds each caller so that none starves the others)");
    this.limitKey = limitKey;
    this.limit = limit;
    this.actual = actual;
    this.retryAfterMillis = retryAfterMillis;
  }

  public String limitKey() {
    return limitKey;
  }

  public long limit() {
    return limit;
  }

  public long actual() {
    return actual;
  }

  /** How long until the same request would be admitted (at least 1 ms). */
  public long retryAfterMillis() {
    return retryAfterMillis;
  }
}
