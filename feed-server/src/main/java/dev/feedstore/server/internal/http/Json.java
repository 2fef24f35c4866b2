package dev.feedstore.server.internal.http;

/**
 * Writes one JSON object, field by field, for the HTTP transport's answers and events. Numbers are
 * JSON numbers (positions and sequences stay below 2^53 in practice, so JavaScript reads them
 * exactly); strings are escaped as RFC 8259 asks. Not thread-safe.
 */
public final class Json {
  private final StringBuilder out;
  private boolean first = true;

  private Json(StringBuilder out) {
    this.out = out;
    out.append('{');
  }

  /** A new object. */
  public static Json object() {
    return new Json(new StringBuilder(128));
  }

  public Json field(String name, String value) {
    name(name);
    string(out, value);
    return this;
  }

  public Json field(String name, long value) {
    name(name);
    out.append(value);
    return this;
  }

  public Json field(String name, boolean value) {
    name(name);
    out.append(value);
    return this;
  }

  /** A field whose value is JSON text already (an object or an array). */
  Json raw(String name, CharSequence json) {
    name(name);
    out.append(json);
    return this;
  }

  /** The object's text; the writer is done. */
  public String end() {
    return out.append('}').toString();
  }

  /** {@code [a,b,...]} of JSON texts. */
  static String array(Iterable<? extends CharSequence> items) {
    StringBuilder array = new StringBuilder().append('[');
    boolean none = true;
    for (CharSequence item : items) {
      if (!none) {
        array.append(',');
      }
      array.append(item);
      none = false;
    }
    return array.append(']').toString();
  }

  /** {@code value} as a JSON string. */
  static String string(String value) {
    StringBuilder text = new StringBuilder(value.length() + 2);
    string(text, value);
    return text.toString();
  }

  private void name(String name) {
    if (!first) {
      out.append(',');
    }
    first = false;
    string(out, name);
    out.append(':');
  }

  private static void string(StringBuilder out, String value) {
    out.append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20 || c == '\u2028' || c == '\u2029') {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
