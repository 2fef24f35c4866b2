package dev.feedstore.core.json;

import dev.feedstore.core.InvalidValueException;
import java.util.ArrayList;
import java.util.List;

/**
 * A JSON pointer (RFC 6901): {@code ""} for the whole value, or {@code /} followed by reference
 * tokens separated by {@code /}, in which {@code ~1} stands for {@code /} and {@code ~0} for
 * {@code ~}. A token selects an object's member by name, or an array's element by index ({@code 0}
 * or a decimal without leading zeros, below the array's length); anything else resolves to
 * nothing ({@code -}, the place after an array's last element, included).
 *
 * <p>Equal pointers have equal text. Thread-safe (immutable).
 */
public final class JsonPointer implements Comparable<JsonPointer> {
  /** The pointer to the whole value. */
  public static final JsonPointer WHOLE = new JsonPointer("", List.of());

  private static final String RULE =
      "must be a JSON pointer (RFC 6901): empty, or '/' followed by tokens in which '~' is written '~0'"
          + " and '/' is written '~1'";

  private final String text;
  private final List<String> tokens;

  private JsonPointer(String text, List<String> tokens) {
    this.text = text;
    this.tokens = tokens;
  }

  /**
   * The pointer written {@code text}.
   *
   * @throws InvalidValueException (field {@code pointer}) if {@code text} is not a JSON pointer: it
   *     does not start with {@code /}, or holds a {@code ~} not followed by {@code 0} or {@code 1},
   *     or a lone surrogate
   */
  public static JsonPointer parse(String text) {
    if (text == null) {
      throw new InvalidValueException("pointer", "is required", null);
    }
    if (text.isEmpty()) {
      return WHOLE;
    }
    if (text.charAt(0) != '/' || CodePointOrder.loneSurrogateAt(text) >= 0) {
      throw new InvalidValueException("pointer", RULE, text);
    }
    List<String> tokens = new ArrayList<>();
    StringBuilder token = new StringBuilder();
    for (int i = 1; i <= text.length(); i++) {
      char c = i < text.length() ? text.charAt(i) : '/';
      if (c == '/') {
        tokens.add(token.toString());
        token.setLength(0);
      } else if (c == '~') {
        char next = i + 1 < text.length() ? text.charAt(i + 1) : ' ';
        if (next != '0' && next != '1') {
          throw new InvalidValueException("pointer", RULE, text);
        }
        token.append(next == '0' ? '~' : '/');
        i++;
      } else {
        token.append(c);
      }
    }
    return new JsonPointer(text, List.copyOf(tokens));
  }

  /** The reference tokens, unescaped. */
  public List<String> tokens() {
    return tokens;
  }

  /** True for {@code ""}, the pointer to the whole value. */
  public boolean isWhole() {
    return tokens.isEmpty();
  }

  /** The value this pointer selects in {@code root}, or {@code null} when it selects nothing. */
  public JsonValue resolve(JsonValue root) {
    JsonValue at = root;
    for (String token : tokens) {
      if (at instanceof JsonObject object) {
        at = object.get(token);
      } else if (at instanceof JsonArray array) {
        int index = index(token);
        at = index >= 0 && index < array.elements().size() ? array.elements().get(index) : null;
      } else {
        return null;
      }
      if (at == null) {
        return null;
      }
    }
    return at;
  }

  /** The array index {@code token} names, or -1 when it names none. */
  private static int index(String token) {
    if (token.isEmpty() || token.length() > 9 || (token.length() > 1 && token.charAt(0) == '0')) {
      return -1;
    }
    int index = 0;
    for (int i = 0; i < token.length(); i++) {
      char c = token.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      index = index * 10 + (c - '0');
    }
    return index;
  }

  /** By text, code point by code point. */
  @Override
  public int compareTo(JsonPointer other) {
    return CodePointOrder.compare(text, other.text);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof JsonPointer that && text.equals(that.text);
  }

  @Override
  public int hashCode() {
    return text.hashCode();
  }

  /** The pointer's text, as written. */
  @Override
  public String toString() {
    return text;
  }
}
