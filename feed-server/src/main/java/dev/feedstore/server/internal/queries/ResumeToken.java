package dev.feedstore.server.internal.queries;

import dev.feedstore.core.InvalidValueException;
import java.util.Objects;

/**
 * What a live query's subscriber sends back to continue after an event: the position its rows are
 * as of, the space's floor they were computed against, the hash of the query, and the server token
 * of the space, so that a token of another query, of another store, or of rows a compaction has
 * changed since is never taken for this one. Written {@code POSITION.FLOOR.HASH.TOKEN} ({@code
 * 42.0.1f2e3d4c5b6a7988.Xb3...Q}; the server token, which may hold dots, comes last): the SSE {@code
 * id} and the gRPC {@code resume_token}. Thread-safe (immutable).
 *
 * @param position the position the subscriber's rows are as of
 * @param floor the space's floor the rows were computed against
 * @param queryHash {@link #hashOf} the query's fingerprint
 * @param serverToken the space's server token
 */
public record ResumeToken(long position, long floor, String queryHash, String serverToken) {
  /** How many hex digits of the query's fingerprint a token carries. */
  static final int HASH_LENGTH = 16;

  public ResumeToken {
    Objects.requireNonNull(queryHash, "queryHash");
    Objects.requireNonNull(serverToken, "serverToken");
  }

  /** The short hash of a query's fingerprint ({@code LiveQuery.fingerprint()}). */
  public static String hashOf(String fingerprint) {
    return fingerprint.substring(0, HASH_LENGTH);
  }

  /**
   * Reads a token as {@link #text()} writes it.
   *
   * @param field the name of the request field or header it came in, for the refusal
   * @throws InvalidValueException naming {@code field} if it is not a token
   */
  public static ResumeToken parse(String text, String field) {
    String[] parts = text.split("\\.", 4);
    if (parts.length != 4 || parts[2].isEmpty() || parts[3].isEmpty()) {
      throw new InvalidValueException(field, "must be a resume token of this server (POSITION.FLOOR.HASH.TOKEN,"
          + " as an event carried it)", text);
    }
    long position = number(parts[0]);
    long floor = number(parts[1]);
    if (position < 0 || floor < 0 || floor > position) {
      throw new InvalidValueException(field, "must start with a position and a floor, 0 <= floor <= position"
          + " (POSITION.FLOOR.HASH.TOKEN)", text);
    }
    return new ResumeToken(position, floor, parts[2], parts[3]);
  }

  private static long number(String digits) {
    try {
      return Long.parseLong(digits);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** The token as a subscriber sends it back. */
  public String text() {
    return position + "." + floor + "." + queryHash + "." + serverToken;
  }

  @Override
  public String toString() {
    return text();
  }
}
