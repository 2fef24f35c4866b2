package dev.feedstore.server.internal.http;

/**
 * Reads JSON text (RFC 8259, strictly) one value at a time, for bodies whose shape the reader knows:
 * it asks for an object, a member name, a string, a number, or any one value ({@link #value}), and
 * the scanner checks the text is that. No tree is built and nothing recurses, so a hostile body
 * costs its length, however deep it nests. A text that is not what was asked for is a {@link
 * Malformed} naming what was expected and where. Not thread-safe: one body at a time.
 */
public final class JsonScanner {
  /** The text is not the JSON the reader asked for. */
  public static final class Malformed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Malformed(String message) {
      super(message, null, false, false);
    }
  }

  private final String text;
  private int at;

  public JsonScanner(String text) {
    this.text = text;
  }

  /** Where the scanner is: the index of the next character to read. */
  public int at() {
    return at;
  }

  /**
   * Reads any one JSON value, checking all of it, and returns the index it starts at (its text is
   * {@code text.substring(start, at())}).
   */
  public int value() {
    space();
    int start = at;
    StringBuilder open = new StringBuilder(); // the containers the value is inside, innermost last
    while (true) {
      space();
      char c = peek();
      if (c == '{' || c == '[') {
        at++;
        space();
        if (peek() == (c == '{' ? '}' : ']')) {
          at++;
        } else {
          open.append(c);
          if (c == '{') {
            memberName();
          }
          continue; // the first member's value, or the first element
        }
      } else if (c == '"') {
        string();
      } else if (c == 't' || c == 'f' || c == 'n') {
        literal(c == 't' ? "true" : c == 'f' ? "false" : "null");
      } else if (c == '-' || (c >= '0' && c <= '9')) {
        number();
      } else {
        throw malformed("a JSON value");
      }
      if (!closeAfterValue(open)) {
        return start;
      }
    }
  }

  /**
   * After a value inside {@code open}: closes the containers it ends, and reads the comma (and
   * member name) before the next value. False when no container is left open: the value is whole.
   */
  private boolean closeAfterValue(StringBuilder open) {
    while (open.length() > 0) {
      char container = open.charAt(open.length() - 1);
      space();
      if (peek() == ',') {
        at++;
        if (container == '{') {
          memberName();
        }
        return true;
      }
      if (peek() != (container == '{' ? '}' : ']')) {
        throw malformed(container == '{' ? "',' or '}' in an object" : "',' or ']' in an array");
      }
      at++;
      open.setLength(open.length() - 1);
    }
    return false;
  }

  private void memberName() {
    space();
    if (peek() != '"') {
      throw malformed("a member name");
    }
    string();
    expect(':', "':' after a member name");
  }

  private void literal(String word) {
    if (!text.startsWith(word, at)) {
      throw malformed(word);
    }
    at += word.length();
  }

  /** True when the next value is an array. */
  public boolean atArray() {
    space();
    return peek() == '[';
  }

  /** Reads the {@code {} that opens an object. */
  void beginObject() {
    expect('{', "an object");
  }

  /**
   * Reads the next member name of an object, or its closing {@code }}: the name, or null at the end.
   * {@code first} is true for the first call after {@link #beginObject}.
   */
  String nextName(boolean first) {
    space();
    if (peek() == '}') {
      at++;
      return null;
    }
    if (!first) {
      expect(',', "',' or '}' after a member");
      space();
    }
    String name = string();
    space();
    expect(':', "':' after a member name");
    return name;
  }

  /** Reads the {@code [} that opens an array. */
  public void beginArray() {
    expect('[', "an array");
  }

  /** True when the array has another element; {@code first} is true for the first call after {@link #beginArray}. */
  public boolean hasNext(boolean first) {
    space();
    if (peek() == ']') {
      at++;
      return false;
    }
    if (!first) {
      expect(',', "',' or ']' after an element");
    }
    return true;
  }

  /** Reads {@code true} or {@code false}. */
  boolean bool() {
    space();
    if (text.startsWith("true", at)) {
      literal("true");
      return true;
    }
    if (text.startsWith("false", at)) {
      literal("false");
      return false;
    }
    throw malformed("true or false");
  }

  /** True, having read it, when the next value is {@code null}. */
  boolean nullValue() {
    space();
    if (text.startsWith("null", at)) {
      literal("null");
      return true;
    }
    return false;
  }

  /** Reads a string, its escapes resolved. */
  String string() {
    space();
    if (peek() != '"') {
      throw malformed("a string");
    }
    at++;
    StringBuilder out = new StringBuilder();
    while (true) {
      if (at >= text.length()) {
        throw malformed("the end of a string");
      }
      char c = text.charAt(at++);
      if (c == '"') {
        return out.toString();
      }
      if (c < 0x20) {
        throw new Malformed("a control character must be escaped in a string, at character " + (at - 1));
      }
      if (c != '\\') {
        out.append(c);
        continue;
      }
      char escape = at < text.length() ? text.charAt(at++) : '\0';
      switch (escape) {
        case '"', '\\', '/' -> out.append(escape);
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> out.append(hex());
        default -> throw new Malformed("unknown escape at character " + (at - 1));
      }
    }
  }

  /** Reads a number, as its text. */
  String number() {
    space();
    int start = at;
    if (peek() == '-') {
      at++;
    }
    if (peek() == '0') {
      at++;
    } else {
      digits();
    }
    if (peek() == '.') {
      at++;
      digits();
    }
    if (peek() == 'e' || peek() == 'E') {
      at++;
      if (peek() == '+' || peek() == '-') {
        at++;
      }
      digits();
    }
    return text.substring(start, at);
  }

  /** True when the next value is a string (a number may be given as one). */
  boolean atString() {
    space();
    return peek() == '"';
  }

  /** Checks nothing but whitespace follows the value read. */
  public void end() {
    space();
    if (at != text.length()) {
      throw new Malformed("nothing may follow the value, at character " + at);
    }
  }

  private char hex() {
    if (at + 4 > text.length()) {
      throw malformed("4 hex digits after \\u");
    }
    int value = 0;
    for (int i = 0; i < 4; i++) {
      int digit = Character.digit(text.charAt(at++), 16);
      if (digit < 0) {
        throw malformed("4 hex digits after \\u");
      }
      value = value * 16 + digit;
    }
    return (char) value;
  }

  private void digits() {
    if (peek() < '0' || peek() > '9') {
      throw malformed("a number");
    }
    while (peek() >= '0' && peek() <= '9') {
      at++;
    }
  }

  private void expect(char c, String what) {
    space();
    if (peek() != c) {
      throw malformed(what);
    }
    at++;
  }

  private void space() {
    while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
      at++;
    }
  }

  private char peek() {
    return at < text.length() ? text.charAt(at) : '\0';
  }

  private Malformed malformed(String expected) {
    return new Malformed("expected " + expected + " at character " + at
        + (at >= text.length() ? " (the end of the body)" : ""));
  }
}
