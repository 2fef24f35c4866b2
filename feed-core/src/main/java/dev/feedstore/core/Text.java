package dev.feedstore.core;

/** Checks shared by the string-valued identifiers. */
final class Text {
  private Text() {}

  static final int MAX_ID_CHARS = 128;
  static final String ID_CHARSET = "[A-Za-z0-9._:-]";

  /** 1..128 characters of {@code [A-Za-z0-9._:-]}. */
  static String requireIdentifier(String field, String value) {
    requireLength(field, value, MAX_ID_CHARS);
    for (int i = 0; i < value.length(); i++) {
      if (!isIdentifierChar(value.charAt(i))) {
        throw new InvalidValueException(
            field, "must be 1-" + MAX_ID_CHARS + " characters of " + ID_CHARSET, value);
      }
    }
    return value;
  }

  /** 1..128 characters of printable ASCII without space (0x21..0x7e). */
  static String requirePrintable(String field, String value) {
    requireLength(field, value, MAX_ID_CHARS);
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x21 || c > 0x7e) {
        throw new InvalidValueException(
            field,
            "must be 1-" + MAX_ID_CHARS + " characters of printable ASCII without spaces (0x21-0x7e)",
            value);
      }
    }
    return value;
  }

  private static void requireLength(String field, String value, int max) {
    if (value == null) {
      throw new InvalidValueException(field, "is required", null);
    }
    if (value.isEmpty() || value.length() > max) {
      throw new InvalidValueException(field, "must be 1-" + max + " characters long", value);
    }
  }

  private static boolean isIdentifierChar(char c) {
    return (c >= 'A' && c <= 'Z')
        || (c >= 'a' && c <= 'z')
        || (c >= '0' && c <= '9')
        || c == '.'
        || c == '_'
        || c == ':'
        || c == '-';
  }
}
