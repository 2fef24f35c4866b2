package dev.feedstore.server.internal.monitoring;

import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.event.Level;

/**
 * Logs at most {@code perMinute} lines per minute and counts the rest; the count is logged once
 * the minute is over (on the next line or {@link #flush}), so a flood of bad requests cannot flood
 * the log but still shows.
 *
 * <p>Thread-safe.
 */
public final class RateLimitedLog {
  private static final long WINDOW_MILLIS = 60_000;
  static final int CLIENT_TEXT_CHARS = 64;

  private final Logger logger;
  private final Level level;
  private final String what;
  private final Clock clock;
  private final int perMinute;
  /** Guarded by this. */
  private long windowStart = Long.MIN_VALUE;
  /** Guarded by this. */
  private int logged;
  /** Guarded by this. */
  private long suppressed;

  /**
   * @param what what the lines are about, plural, for the suppressed count ("rejected requests")
   */
  public RateLimitedLog(Logger logger, Level level, String what, Clock clock, int perMinute) {
    this.logger = logger;
    this.level = level;
    this.what = what;
    this.clock = clock;
    this.perMinute = perMinute;
  }

  /** Logs the line unless this minute's budget is spent; {@code cause} may be null. */
  public void log(String line, Throwable cause) {
    synchronized (this) {
      rollWindow();
      if (logged >= perMinute) {
        suppressed++;
        return;
      }
      logged++;
    }
    logger.atLevel(level).setCause(cause).log(printable(line));
  }

  /** The line with control characters escaped, so a client's text cannot forge log lines. */
  static String printable(String line) {
    StringBuilder out = new StringBuilder(line.length());
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /**
   * A client's text as a log line shows it: the first {@value #CLIENT_TEXT_CHARS} characters, then
   * how long it was, so that a huge field cannot make a huge line.
   */
  public static String clip(String clientText) {
    if (clientText.length() <= CLIENT_TEXT_CHARS) {
      return clientText;
    }
    return clientText.substring(0, CLIENT_TEXT_CHARS) + "... (" + clientText.length() + " chars)";
  }

  /** Reports the suppressed count if the minute is over. */
  public void flush() {
    synchronized (this) {
      rollWindow();
    }
  }

  /** How many lines were suppressed in the current minute so far. */
  synchronized long suppressed() {
    return suppressed;
  }

  private void rollWindow() {
    long now = clock.millis();
    if (windowStart != Long.MIN_VALUE && now - windowStart < WINDOW_MILLIS) {
      return;
    }
    if (suppressed > 0) {
      logger.atLevel(level).log("{} more {} were not logged in the last minute (at most {} per minute are)",
          suppressed, what, perMinute);
    }
    windowStart = now;
    logged = 0;
    suppressed = 0;
  }
}
