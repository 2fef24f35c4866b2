package dev.feedstore.core.json;

import java.util.Comparator;

/**
 * The order of strings by Unicode code point, the order of their UTF-8 bytes (and of {@code
 * COLLATE "C"}), which {@link String#compareTo} is not: it compares UTF-16 units, so it puts
 * U+10000 (a surrogate pair, <code>&#92;uD800&#92;uDC00</code>) before U+FFFF. Stateless.
 */
public final class CodePointOrder {
  private CodePointOrder() {}

  /** Strings by code point. */
  public static final Comparator<String> COMPARATOR = CodePointOrder::compare;

  /** Compares two strings by code point; either may hold lone surrogates, which sort as themselves. */
  public static int compare(String a, String b) {
    int shorter = Math.min(a.length(), b.length());
    for (int i = 0; i < shorter; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        // At the first difference, a surrogate starts (or continues) a code point above U+FFFF;
        // moving surrogates above U+E000..U+FFFF makes unit order agree with code point order.
        return Integer.compare(rank(x), rank(y));
      }
    }
    return Integer.compare(a.length(), b.length());
  }

  private static int rank(char c) {
    if (Character.isSurrogate(c)) {
      return c + 0x2000;
    }
    return c >= 0xE000 ? c - 0x800 : c;
  }

  /** The index of the first lone surrogate of {@code text}, or -1 when every surrogate is paired. */
  static int loneSurrogateAt(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return i;
      }
    }
    return -1;
  }
}
