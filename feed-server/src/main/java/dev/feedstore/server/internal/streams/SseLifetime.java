package dev.feedstore.server.internal.streams;

/**
 * How long a Durable Streams event stream stays open: {@code streams-sse-ms}, give or take {@value
 * #JITTER} of it at random, so that the readers of one stream, which a CDN collapses onto one
 * request, do not all reconnect at the same moment. Stateless and thread-safe.
 */
final class SseLifetime {
  /** The share of {@code streams-sse-ms} a lifetime may be shorter or longer by. */
  static final double JITTER = 0.2;

  private SseLifetime() {}

  /**
   * The lifetime in milliseconds, at least 1.
   *
   * @param setting {@code streams-sse-ms}
   * @param random a draw in {@code [0, 1)}: 0 gives the shortest lifetime, near 1 the longest
   */
  static long millis(long setting, double random) {
    if (random < 0 || random >= 1) {
      throw new IllegalArgumentException("random must be in [0, 1), was " + random);
    }
    return Math.max(1, Math.round(setting * (1 - JITTER + 2 * JITTER * random)));
  }
}
