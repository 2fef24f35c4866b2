package dev.feedstore.core;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;

/**
 * The name of a Durable Stream: the path after {@code /v1/stream/} in its URL, such as {@code
 * chat/room-1}. 1-{@value #MAX_CHARS} characters without control characters, in segments separated
 * by {@code /}, none of them empty, {@code .} or {@code ..}, so that a name is one path and never
 * climbs out of the streams' namespace.
 *
 * <p>A stream is a feed of the server's streams space. Its feed id is derived from its name and
 * its generation ({@link #feedId}): the first stream of a name is generation 0, and a name deleted
 * and created again gets generation 1, 2, ..., so every stream has a feed of its own and a replica
 * finds the feed of a stream from its name alone.
 */
public record StreamName(String value) {
  /** The longest name, in characters. */
  public static final int MAX_CHARS = 1024;
  private static final String RULE = "must be 1-" + MAX_CHARS + " characters without control characters, in"
      + " segments separated by '/', none of them empty, '.' or '..'";

  /**
   * The stream name {@code value}.
   *
   * @throws NullPointerException if {@code value} is null
   * @throws InvalidValueException naming {@code stream name} if {@code value} breaks the rule above
   */
  public StreamName {
    Objects.requireNonNull(value, "value");
    if (value.isEmpty() || value.length() > MAX_CHARS) {
      throw new InvalidValueException("stream name", RULE, value);
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        throw new InvalidValueException("stream name", RULE, value);
      }
    }
    for (String segment : value.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        throw new InvalidValueException("stream name", RULE, value);
      }
    }
  }

  /** The same as the constructor. */
  public static StreamName of(String value) {
    return new StreamName(value);
  }

  /**
   * The feed id of the stream of this name and generation: the first 128 bits of SHA-256 over
   * {@code "durable-stream\n" + generation + "\n" + name} (UTF-8), as a ULID. Stable: every
   * server and replica computes the same id.
   *
   * @throws IllegalArgumentException if the generation is negative
   */
  public FeedId feedId(long generation) {
    if (generation < 0) {
      throw new IllegalArgumentException("generation must be >= 0, was " + generation);
    }
    byte[] digest;
    try {
      digest = MessageDigest.getInstance("SHA-256").digest(("durable-stream\n" + generation + "\n" + value)
          .getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
    long high = 0;
    long low = 0;
    for (int i = 0; i < 8; i++) {
      high = (high << 8) | (digest[i] & 0xff);
      low = (low << 8) | (digest[i + 8] & 0xff);
    }
    return FeedId.ofBits(high, low);
  }

  @Override
  public String toString() {
    return value;
  }
}
