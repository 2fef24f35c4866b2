package dev.feedstore.core.json;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.OptionalLong;

/**
 * A JSON number as an exact decimal: {@code digits × 10^exponent} with a sign, the digits without
 * leading or trailing zeros. So {@code 7}, {@code 7.0}, {@code 7e0} and {@code 70e-1} are one value,
 * and {@code -0} is {@code 0}. Numbers compare by value, exactly, whatever their size: no rounding
 * to {@code double} ever happens.
 *
 * <p>Whether the number was written as a plain integer (no fraction, no exponent) is remembered
 * ({@link #writtenAsInteger()}), because document keys accept only those, but it is not part of
 * the value: {@code 7} equals {@code 7.0}.
 *
 * <p>Thread-safe (immutable).
 */
public final class JsonNumber implements JsonValue, Comparable<JsonNumber> {
  /** The largest exponent magnitude a number may be written with (18 digits); see {@link JsonReader}. */
  static final int MAX_EXPONENT_DIGITS = 18;
  /** Plain notation up to 21 integer digits, as JavaScript writes numbers; scientific beyond. */
  private static final int MAX_PLAIN_INTEGER_DIGITS = 21;
  /** Plain notation up to five zeros after the point ({@code 0.000001}; {@code 1e-7} beyond). */
  private static final int MAX_PLAIN_LEADING_ZEROS = 5;

  /** Zero, written as the plain integer {@code 0}. */
  public static final JsonNumber ZERO = new JsonNumber(false, "", 0, true);

  private final boolean negative;
  /** The significant digits, without leading or trailing zeros; empty for zero. */
  private final String digits;
  private final long exponent;
  private final boolean writtenAsInteger;

  private JsonNumber(boolean negative, String digits, long exponent, boolean writtenAsInteger) {
    this.negative = negative;
    this.digits = digits;
    this.exponent = exponent;
    this.writtenAsInteger = writtenAsInteger;
  }

  /** The integer {@code value}, written as a plain integer. */
  public static JsonNumber of(long value) {
    return parts(value < 0, value < 0 ? Long.toString(value).substring(1) : Long.toString(value), "", 0, true);
  }

  /**
   * The exact value of {@code value}, whatever its scale ({@code 7.00} is {@code 7}); written as a plain
   * integer when its scale is 0.
   */
  public static JsonNumber of(BigDecimal value) {
    BigInteger unscaled = value.unscaledValue();
    return parts(unscaled.signum() < 0, unscaled.abs().toString(), "", -(long) value.scale(), value.scale() == 0);
  }

  /**
   * The number written as {@code [-] integerDigits [. fractionDigits] [e exponent]}, the digits
   * already checked to be ASCII digits.
   */
  static JsonNumber parts(boolean negative, String integerDigits, String fractionDigits, long exponent,
      boolean writtenAsInteger) {
    String all = integerDigits + fractionDigits;
    int first = 0;
    while (first < all.length() && all.charAt(first) == '0') {
      first++;
    }
    if (first == all.length()) {
      return writtenAsInteger ? ZERO : new JsonNumber(false, "", 0, false);
    }
    int end = all.length();
    while (all.charAt(end - 1) == '0') {
      end--;
    }
    long scaled = exponent - fractionDigits.length() + (all.length() - end);
    return new JsonNumber(negative, all.substring(first, end), scaled, writtenAsInteger);
  }

  /** -1, 0 or 1. */
  public int signum() {
    return digits.isEmpty() ? 0 : negative ? -1 : 1;
  }

  /** True when the number was written without fraction and exponent ({@code 7}, not {@code 7.0}). */
  public boolean writtenAsInteger() {
    return writtenAsInteger;
  }

  /** The value as a {@code long} when it is an integer within int64 (however written), else empty. */
  public OptionalLong longValueExact() {
    if (digits.isEmpty()) {
      return OptionalLong.of(0);
    }
    if (exponent < 0 || digits.length() + exponent > 19) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(Long.parseLong((negative ? "-" : "") + digits + "0".repeat((int) exponent)));
    } catch (NumberFormatException outOfRange) {
      return OptionalLong.empty();
    }
  }

  /**
   * The value as a {@link BigDecimal}.
   *
   * @throws ArithmeticException if the exponent is beyond what a {@code BigDecimal} holds
   */
  public BigDecimal toBigDecimal() {
    if (digits.isEmpty()) {
      return BigDecimal.ZERO;
    }
    BigInteger unscaled = new BigInteger(digits);
    return new BigDecimal(negative ? unscaled.negate() : unscaled, Math.toIntExact(-exponent));
  }

  @Override
  public int compareTo(JsonNumber other) {
    int bySign = Integer.compare(signum(), other.signum());
    if (bySign != 0 || digits.isEmpty()) {
      return bySign;
    }
    int byMagnitude = compareMagnitude(other);
    return negative ? -byMagnitude : byMagnitude;
  }

  private int compareMagnitude(JsonNumber other) {
    // The place of the leading digit decides first; then the digits, a missing one being a zero.
    int byPlace = Long.compare(exponent + digits.length(), other.exponent + other.digits.length());
    if (byPlace != 0) {
      return byPlace;
    }
    int shorter = Math.min(digits.length(), other.digits.length());
    for (int i = 0; i < shorter; i++) {
      int byDigit = Character.compare(digits.charAt(i), other.digits.charAt(i));
      if (byDigit != 0) {
        return byDigit;
      }
    }
    return Integer.compare(digits.length(), other.digits.length());
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof JsonNumber that
        && negative == that.negative && exponent == that.exponent && digits.equals(that.digits);
  }

  @Override
  public int hashCode() {
    return (digits.hashCode() * 31 + Long.hashCode(exponent)) * 31 + (negative ? 1 : 0);
  }

  /**
   * The canonical text: an integer in plain digits up to 21 of them ({@code 1500}), a fraction in
   * plain digits up to five zeros after the point ({@code 0.0015}), otherwise one digit, a
   * fraction and an exponent ({@code 1.5e-30}, {@code 1e21}); {@code -} for negatives, {@code 0}
   * for zero.
   */
  @Override
  public String toString() {
    if (digits.isEmpty()) {
      return "0";
    }
    StringBuilder text = new StringBuilder(negative ? "-" : "");
    long place = exponent + digits.length();
    if (exponent >= 0 && place <= MAX_PLAIN_INTEGER_DIGITS) {
      text.append(digits).append("0".repeat((int) exponent));
    } else if (exponent < 0 && place > 0) {
      text.append(digits, 0, (int) place).append('.').append(digits, (int) place, digits.length());
    } else if (exponent < 0 && -place <= MAX_PLAIN_LEADING_ZEROS) {
      text.append("0.").append("0".repeat((int) -place)).append(digits);
    } else {
      text.append(digits.charAt(0));
      if (digits.length() > 1) {
        text.append('.').append(digits, 1, digits.length());
      }
      text.append('e').append(place - 1);
    }
    return text.toString();
  }
}
