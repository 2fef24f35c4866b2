package dev.feedstore.server.internal.streams;

import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * The {@code Stream-Cursor} of live reads: the number of 20-second intervals since 2024-10-09
 * 00:00 UTC, so that a CDN in front keys long-polls by interval and never serves one cached answer
 * forever. A client that echoes a cursor at or past the current interval gets a later one (plus
 * 1-180 intervals at random), so cursors only grow. Thread-safe.
 */
final class StreamCursor {
  private static final long EPOCH_MILLIS = 1_728_432_000_000L;
  private static final long INTERVAL_MILLIS = 20_000;

  private final Clock clock;

  StreamCursor(Clock clock) {
    this.clock = clock;
  }

  /**
   * The cursors of one event stream response that opened with {@code opening} (what {@link #next}
   * gave it): that cursor while it is at or past the current interval, then the current interval,
   * so that a response's cursors never go back and its events stay the same for the readers at the
   * same point. Thread-safe.
   */
  Supplier<String> ofResponse(String opening) {
    return new Supplier<>() {
      private String text = opening;
      private long value = parse(opening);

      @Override
      public synchronized String get() {
        long current = current();
        if (current > value) {
          value = current;
          text = Long.toString(current);
        }
        return text;
      }
    };
  }

  private long current() {
    return Math.max(0, (clock.millis() - EPOCH_MILLIS) / INTERVAL_MILLIS);
  }

  private static long parse(String cursor) {
    try {
      return Long.parseLong(cursor);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** The cursor to answer a request that echoed {@code echoed} with. */
  String next(Optional<String> echoed) {
    long current = current();
    if (echoed.isPresent()) {
      try {
        long given = Long.parseLong(echoed.get());
        if (given >= current) {
          return Long.toString(given + 1 + ThreadLocalRandom.current().nextLong(180));
        }
      } catch (NumberFormatException e) {
        // a cursor this server did not make: answer with the current interval
      }
    }
    return Long.toString(current);
  }
}
