package dev.feedstore.server.internal.streams;

import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import java.util.regex.Pattern;

/**
 * An offset of a Durable Stream: a position of the streams' space, written {@code
 * PPPPPPPPPPPPPPPP_0000000000000000} (the position in 16 decimal digits, then a second field that is
 * 0 in every offset this server hands out, kept for a place inside a block). Fixed width, so offsets
 * sort as strings the way their positions sort, and contain nothing a URL query must escape. Reading
 * from an offset returns the stream's blocks above its position. Immutable.
 *
 * @param position the position of the last block before the offset (0: before everything)
 */
record StreamOffset(long position) {
  /** The largest position an offset can carry. */
  static final long MAX_POSITION = 9_999_999_999_999_999L;
  private static final String ZEROS = "0000000000000000";
  private static final String SECOND_FIELD = "_0000000000000000";
  private static final Pattern FORM = Pattern.compile("[0-9]{16}_[0-9]{16}");
  private static final String RULE = "must be -1 (the beginning), now (the tail) or an offset this server gave"
      + " (16 digits, '_', 16 digits)";

  StreamOffset {
    if (position < 0 || position > MAX_POSITION) {
      throw new IllegalArgumentException("position must be 0-" + MAX_POSITION + ", was " + position);
    }
  }

  /**
   * The offset written in {@code text} (not a sentinel).
   *
   * @throws StreamException (400) naming {@code field} if it is not an offset of this server
   */
  static StreamOffset parse(String field, String text) {
    if (!FORM.matcher(text).matches() || !text.endsWith("_0000000000000000")) {
      throw StreamException.badRequest(field + " " + RateLimitedLog.clip(text) + " " + RULE);
    }
    return new StreamOffset(Long.parseLong(text.substring(0, 16)));
  }

  /**
   * The offset's text. Written without a format string: every reader of a live stream whose batch no
   * other reader sent writes one in its control event.
   */
  @Override
  public String toString() {
    String digits = Long.toString(position);
    return ZEROS.substring(digits.length()) + digits + SECOND_FIELD;
  }
}
