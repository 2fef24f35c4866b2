package dev.feedstore.core;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.Locale;
import java.util.Random;

/**
 * The id of a feed: a ULID, 26 characters of Crockford base32 (a 48-bit millisecond timestamp
 * followed by 80 random bits). Input is case-insensitive and kept in the canonical upper case, so
 * {@code 01hq...} and {@code 01HQ...} name the same feed. Immutable; ordered as the ULIDs' 128 bits, so
 * by creation time first.
 */
public record FeedId(String value) implements Comparable<FeedId> {
  static final int LENGTH = 26;
  private static final String ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  private static final String RULE =
      "must be a ULID: 26 characters of Crockford base32 (0-9 and A-Z without I, L, O, U),"
          + " first character 0-7";
  private static final Random RANDOM = new SecureRandom();
  /** Whether a character is in {@link #ALPHABET}, by its code (a lookup: ids are checked per block read). */
  private static final boolean[] IN_ALPHABET = new boolean[128];
  /** The value of each character of {@link #ALPHABET}, by its code. */
  private static final byte[] DIGITS = new byte[128];

  static {
    for (int i = 0; i < ALPHABET.length(); i++) {
      IN_ALPHABET[ALPHABET.charAt(i)] = true;
      DIGITS[ALPHABET.charAt(i)] = (byte) i;
    }
  }

  /**
   * The feed id {@code value}, a ULID in either case, kept in upper case.
   *
   * @throws InvalidValueException naming {@code feedId} if {@code value} is null or not a ULID
   */
  public FeedId {
    if (value == null) {
      throw new InvalidValueException("feedId", "is required", null);
    }
    if (value.length() != LENGTH) {
      throw new InvalidValueException("feedId", RULE, value);
    }
    String upper = value.toUpperCase(Locale.ROOT);
    for (int i = 0; i < LENGTH; i++) {
      char c = upper.charAt(i);
      if (c >= IN_ALPHABET.length || !IN_ALPHABET[c]) {
        throw new InvalidValueException("feedId", RULE, value);
      }
    }
    if (upper.charAt(0) > '7') {
      // 26 base32 characters hold 130 bits; a ULID has 128, so the first may only carry 3.
      throw new InvalidValueException("feedId", RULE, value);
    }
    value = upper;
  }

  /**
   * The feed id {@code value}, a ULID in any case; the same as the constructor, and named like the
   * other ids' factories ({@link SpaceId#of}, {@link ActorId#of}).
   *
   * @throws InvalidValueException if {@code value} is not a ULID
   */
  public static FeedId of(String value) {
    return new FeedId(value);
  }

  /**
   * The same as {@link #of}.
   *
   * @deprecated use {@link #of}, named like the other ids' factories
   */
  @Deprecated
  public static FeedId parse(String value) {
    return of(value);
  }

  /** A new id with the current time and 80 bits from a {@link SecureRandom}. */
  public static FeedId generate() {
    return generate(Clock.systemUTC(), RANDOM);
  }

  /** A new id from the given clock and randomness, so tests can make them reproducibly. */
  public static FeedId generate(Clock clock, Random random) {
    long millis = clock.millis();
    if (millis < 0 || millis >= (1L << 48)) {
      throw new InvalidValueException("clock millis", "must fit in 48 bits for a ULID", millis);
    }
    char[] chars = new char[LENGTH];
    // 10 characters of timestamp (50 bits, top 2 always zero), most significant first.
    for (int i = 9; i >= 0; i--) {
      chars[i] = ALPHABET.charAt((int) (millis & 31));
      millis >>>= 5;
    }
    for (int i = 10; i < LENGTH; i++) {
      chars[i] = ALPHABET.charAt(random.nextInt(32));
    }
    return new FeedId(new String(chars));
  }

  /**
   * The upper 64 of the id's 128 bits (the ULID read as a number, whose unsigned order is the ids'
   * order): the first 13 characters hold 63 bits (the first character only 3), followed by the top
   * bit of the 14th.
   */
  long high() {
    long bits = 0;
    for (int i = 0; i < 13; i++) {
      bits = (bits << 5) | DIGITS[value.charAt(i)];
    }
    return (bits << 1) | (DIGITS[value.charAt(13)] >>> 4);
  }

  /** The lower 64 of the id's 128 bits: the last 13 characters, without the top bit of the first of them. */
  long low() {
    long bits = 0;
    for (int i = 13; i < LENGTH; i++) {
      bits = (bits << 5) | DIGITS[value.charAt(i)];
    }
    return bits;
  }

  /** The id whose 128 bits are {@code high} and {@code low}, as {@link #high} and {@link #low} give them. */
  static FeedId ofBits(long high, long low) {
    char[] chars = new char[LENGTH];
    for (int i = LENGTH - 1; i >= 0; i--) {
      chars[i] = ALPHABET.charAt((int) (low & 31));
      low = (low >>> 5) | (high << 59);
      high >>>= 5;
    }
    return new FeedId(new String(chars));
  }

  /** The creation time encoded in the id, in Unix milliseconds. */
  public long timestampMillis() {
    long millis = 0;
    for (int i = 0; i < 10; i++) {
      millis = (millis << 5) | ALPHABET.indexOf(value.charAt(i));
    }
    return millis;
  }

  @Override
  public int compareTo(FeedId other) {
    return value.compareTo(other.value);
  }

  @Override
  public String toString() {
    return value;
  }
}
