package dev.feedstore.core.json;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The canonical JSON text of a value: no whitespace; object members sorted by the code points of
 * their names; numbers in {@link JsonNumber#toString()}'s form; strings with only what must be
 * escaped escaped ({@code "}, {@code \}, and control characters, as {@code \b \f \n \r \t} or
 * <code>&#92;u00XX</code> in lower case), everything else as itself. Equal values have equal canonical
 * texts, and {@link JsonReader} reads a canonical text back to an equal value. Stateless.
 */
public final class JsonWriter {
  private JsonWriter() {}

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  /** The canonical text of {@code value}. */
  public static String canonical(JsonValue value) {
    StringBuilder out = new StringBuilder();
    write(value, out);
    return out.toString();
  }

  /** Appends the canonical text of {@code value} to {@code out}. */
  public static void write(JsonValue value, StringBuilder out) {
    if (value instanceof JsonString string) {
      quote(string.value(), out);
    } else if (value instanceof JsonArray array) {
      out.append('[');
      List<JsonValue> elements = array.elements();
      for (int i = 0; i < elements.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        write(elements.get(i), out);
      }
      out.append(']');
    } else if (value instanceof JsonObject object) {
      List<Map.Entry<String, JsonValue>> members = new ArrayList<>(object.members().entrySet());
      members.sort(Map.Entry.comparingByKey(CodePointOrder.COMPARATOR));
      out.append('{');
      for (int i = 0; i < members.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        quote(members.get(i).getKey(), out);
        out.append(':');
        write(members.get(i).getValue(), out);
      }
      out.append('}');
    } else {
      out.append(value);
    }
  }

  /** Appends {@code text} as a JSON string. */
  public static void quote(String text, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xf]);
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
