package dev.feedstore.core.json;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Optional;

/**
 * The strict JSON reader: what it accepts is JSON, everything else is not. It accepts one value
 * (RFC 8259) in UTF-8 with whitespace (space, tab, line feed, carriage return) around it, and
 * refuses:
 *
 * <ul>
 *   <li>anything RFC 8259 does not allow: a byte order mark, trailing text, comments, single
 *       quotes, {@code NaN}, leading zeros, unescaped control characters in strings, ...;
 *   <li>bytes that are not UTF-8: overlong forms, encoded surrogates, code points above U+10FFFF,
 *       truncated sequences;
 *   <li>escapes that make a lone surrogate (<code>"&#92;uD800"</code> without its low half);
 *   <li>an object with two members of one name after unescaping ({@code "a"} and <code>"&#92;u0061"</code>),
 *       whatever their values;
 *   <li>arrays and objects nested deeper than {@value #MAX_DEPTH} (64 nested is JSON, 65 is not);
 *   <li>a number whose exponent has more than 18 digits (after leading zeros), a limit RFC 8259
 *       section 9 allows: every other number is kept exactly.
 * </ul>
 *
 * <p>Thread-safe: every call reads with state of its own.
 */
public final class JsonReader {
  /** The deepest nesting of arrays and objects that is JSON. */
  public static final int MAX_DEPTH = 64;

  private final byte[] in;
  private int at;
  private int depth;

  private JsonReader(byte[] in, int at) {
    this.in = in;
    this.at = at;
  }

  /**
   * The value {@code bytes} hold.
   *
   * @throws MalformedJsonException if they are not one JSON value with whitespace around it
   */
  public static JsonValue parse(byte[] bytes) {
    JsonReader reader = new JsonReader(bytes, 0);
    reader.skipWhitespace();
    JsonValue value = reader.value();
    reader.skipWhitespace();
    if (reader.at < bytes.length) {
      throw reader.malformed("text after the value");
    }
    return value;
  }

  /**
   * The value the text holds, read as its UTF-8 bytes.
   *
   * @throws MalformedJsonException if it is not one JSON value with whitespace around it, or holds a
   *     lone surrogate
   */
  public static JsonValue parse(String text) {
    return parse(utf8(text));
  }

  /** The value {@code bytes} hold, or empty when they are not JSON. */
  public static Optional<JsonValue> tryParse(byte[] bytes) {
    try {
      return Optional.of(parse(bytes));
    } catch (MalformedJsonException notJson) {
      return Optional.empty();
    }
  }

  /**
   * One value at the start of {@code bytes[from..]} (after whitespace), and where it ends: for
   * languages that embed JSON values, such as the text form of live queries. What follows the value
   * is not looked at.
   *
   * @throws MalformedJsonException if no JSON value starts there
   */
  public static ValueAt readValue(byte[] bytes, int from) {
    JsonReader reader = new JsonReader(bytes, from);
    reader.skipWhitespace();
    JsonValue value = reader.value();
    return new ValueAt(value, reader.at);
  }

  /** A value read by {@link #readValue} and the offset of the first byte after it. */
  public record ValueAt(JsonValue value, int end) {}

  /**
   * The UTF-8 bytes of {@code text}.
   *
   * @throws MalformedJsonException if the text holds a lone surrogate, which has no UTF-8 form
   */
  public static byte[] utf8(String text) {
    try {
      ByteBuffer encoded = StandardCharsets.UTF_8.newEncoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .encode(CharBuffer.wrap(text));
      byte[] bytes = new byte[encoded.remaining()];
      encoded.get(bytes);
      return bytes;
    } catch (CharacterCodingException e) {
      throw new MalformedJsonException("a lone surrogate (not UTF-8)", CodePointOrder.loneSurrogateAt(text));
    }
  }

  private JsonValue value() {
    if (at >= in.length) {
      throw malformed("the end of the input where a value was expected");
    }
    switch (in[at]) {
      case '{':
        return object();
      case '[':
        return array();
      case '"':
        return JsonString.decoded(string());
      case 't':
        return literal("true", JsonBoolean.TRUE);
      case 'f':
        return literal("false", JsonBoolean.FALSE);
      case 'n':
        return literal("null", JsonNull.NULL);
      default:
        return number();
    }
  }

  private JsonValue object() {
    enter();
    LinkedHashMap<String, JsonValue> members = new LinkedHashMap<>();
    skipWhitespace();
    if (peek() == '}') {
      at++;
      depth--;
      return JsonObject.owning(members);
    }
    while (true) {
      skipWhitespace();
      if (peek() != '"') {
        throw malformed("a member name expected");
      }
      int nameAt = at;
      String name = string();
      skipWhitespace();
      expect(':');
      skipWhitespace();
      if (members.put(name, value()) != null) {
        throw new MalformedJsonException("a second member named " + JsonString.decoded(name), nameAt);
      }
      skipWhitespace();
      if (peek() == ',') {
        at++;
      } else {
        expect('}');
        depth--;
        return JsonObject.owning(members);
      }
    }
  }

  private JsonValue array() {
    enter();
    ArrayList<JsonValue> elements = new ArrayList<>();
    skipWhitespace();
    if (peek() == ']') {
      at++;
      depth--;
      return JsonArray.owning(elements);
    }
    while (true) {
      skipWhitespace();
      elements.add(value());
      skipWhitespace();
      if (peek() == ',') {
        at++;
      } else {
        expect(']');
        depth--;
        return JsonArray.owning(elements);
      }
    }
  }

  private void enter() {
    if (++depth > MAX_DEPTH) {
      throw malformed("arrays and objects nested deeper than " + MAX_DEPTH);
    }
    at++;
  }

  private JsonValue literal(String word, JsonValue value) {
    for (int i = 0; i < word.length(); i++) {
      if (at + i >= in.length || in[at + i] != word.charAt(i)) {
        throw malformed("an unknown word (true, false or null expected)");
      }
    }
    at += word.length();
    return value;
  }

  private JsonValue number() {
    boolean negative = peek() == '-';
    if (negative) {
      at++;
    }
    int integerStart = at;
    if (peek() == '0') {
      at++;
    } else if (isDigit(peek())) {
      skipDigits();
    } else {
      throw malformed(negative ? "a digit expected after '-'" : "an unexpected character");
    }
    String integerDigits = ascii(integerStart, at);
    String fractionDigits = "";
    if (peek() == '.') {
      at++;
      int fractionStart = at;
      if (!isDigit(peek())) {
        throw malformed("a digit expected after the decimal point");
      }
      skipDigits();
      fractionDigits = ascii(fractionStart, at);
    }
    long exponent = 0;
    boolean hasExponent = peek() == 'e' || peek() == 'E';
    if (hasExponent) {
      exponent = exponent();
    }
    return JsonNumber.parts(negative, integerDigits, fractionDigits, exponent,
        fractionDigits.isEmpty() && !hasExponent);
  }

  private long exponent() {
    at++;
    boolean negative = peek() == '-';
    if (peek() == '-' || peek() == '+') {
      at++;
    }
    if (!isDigit(peek())) {
      throw malformed("a digit expected in the exponent");
    }
    int start = at;
    skipDigits();
    int significant = start;
    while (significant < at - 1 && in[significant] == '0') {
      significant++;
    }
    if (at - significant > JsonNumber.MAX_EXPONENT_DIGITS) {
      throw new MalformedJsonException(
          "a number whose exponent has more than " + JsonNumber.MAX_EXPONENT_DIGITS + " digits", start);
    }
    long magnitude = Long.parseLong(ascii(significant, at));
    return negative ? -magnitude : magnitude;
  }

  private String string() {
    at++;
    StringBuilder text = new StringBuilder();
    while (true) {
      if (at >= in.length) {
        throw malformed("the end of the input inside a string");
      }
      int b = in[at] & 0xff;
      if (b == '"') {
        at++;
        return text.toString();
      } else if (b == '\\') {
        escape(text);
      } else if (b < 0x20) {
        throw malformed("a control character inside a string (it must be escaped)");
      } else if (b < 0x80) {
        text.append((char) b);
        at++;
      } else {
        text.appendCodePoint(utf8Sequence(b));
      }
    }
  }

  private void escape(StringBuilder text) {
    int start = at;
    at++;
    char c = (char) peek();
    at++;
    switch (c) {
      case '"' -> text.append('"');
      case '\\' -> text.append('\\');
      case '/' -> text.append('/');
      case 'b' -> text.append('\b');
      case 'f' -> text.append('\f');
      case 'n' -> text.append('\n');
      case 'r' -> text.append('\r');
      case 't' -> text.append('\t');
      case 'u' -> {
        char unit = hexUnit();
        if (Character.isHighSurrogate(unit) && peek() == '\\' && at + 1 < in.length && in[at + 1] == 'u') {
          at += 2;
          char low = hexUnit();
          if (!Character.isLowSurrogate(low)) {
            throw new MalformedJsonException("a lone surrogate escape", start);
          }
          text.append(unit).append(low);
        } else if (Character.isSurrogate(unit)) {
          throw new MalformedJsonException("a lone surrogate escape", start);
        } else {
          text.append(unit);
        }
      }
      default -> throw new MalformedJsonException("an unknown escape", start);
    }
  }

  private char hexUnit() {
    int unit = 0;
    for (int i = 0; i < 4; i++) {
      int digit = Character.digit(peek(), 16);
      if (digit < 0 || peek() >= 0x80) {
        throw malformed("four hex digits expected after \\u");
      }
      unit = unit * 16 + digit;
      at++;
    }
    return (char) unit;
  }

  /** The code point of the UTF-8 sequence that starts with {@code lead} at {@link #at}. */
  private int utf8Sequence(int lead) {
    int start = at;
    int length;
    int min;
    int max;
    int codePoint;
    if (lead >= 0xc2 && lead <= 0xdf) {
      length = 2;
      codePoint = lead & 0x1f;
      min = 0x80;
      max = 0xbf;
    } else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      codePoint = lead & 0x0f;
      // No overlong forms (E0 80..9F) and no encoded surrogates (ED A0..BF).
      min = lead == 0xe0 ? 0xa0 : 0x80;
      max = lead == 0xed ? 0x9f : 0xbf;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      codePoint = lead & 0x07;
      // No overlong forms (F0 80..8F) and nothing above U+10FFFF (F4 90..BF).
      min = lead == 0xf0 ? 0x90 : 0x80;
      max = lead == 0xf4 ? 0x8f : 0xbf;
    } else {
      throw malformed("a byte that does not start a UTF-8 sequence");
    }
    for (int i = 1; i < length; i++) {
      int b = start + i < in.length ? in[start + i] & 0xff : -1;
      int low = i == 1 ? min : 0x80;
      int high = i == 1 ? max : 0xbf;
      if (b < low || b > high) {
        throw new MalformedJsonException("bytes that are not UTF-8", start);
      }
      codePoint = (codePoint << 6) | (b & 0x3f);
    }
    at = start + length;
    return codePoint;
  }

  private void skipWhitespace() {
    while (at < in.length && (in[at] == ' ' || in[at] == '\t' || in[at] == '\n' || in[at] == '\r')) {
      at++;
    }
  }

  private void skipDigits() {
    while (isDigit(peek())) {
      at++;
    }
  }

  private static boolean isDigit(int b) {
    return b >= '0' && b <= '9';
  }

  private void expect(char c) {
    if (peek() != c) {
      throw malformed("'" + c + "' expected");
    }
    at++;
  }

  /** The byte at {@link #at} (0..255), or -1 at the end. */
  private int peek() {
    return at < in.length ? in[at] & 0xff : -1;
  }

  private String ascii(int from, int to) {
    return new String(in, from, to - from, StandardCharsets.US_ASCII);
  }

  private MalformedJsonException malformed(String problem) {
    return new MalformedJsonException(problem, at);
  }
}
