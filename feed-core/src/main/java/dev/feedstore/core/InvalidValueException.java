package dev.feedstore.core;

/**
 * A value broke a rule of the data model. The message names the value, the rule and the field, so
 * that the person who supplied it can act on it, for example {@code "sequence must be >= 0, was -3"}.
 *
 * <p>Thrown by the constructors and factories of the domain types; nothing has been changed when it
 * is thrown.
 */
public final class InvalidValueException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;
  private static final int SHOWN_CHARS = 64;

  /** The field whose value was rejected. */
  private final String field;
  /** The rule the value broke. */
  private final String rule;
  /** The value as the message shows it: quoted, control characters escaped, long text shortened. */
  private final String shownValue;

  /**
   * @param field the name of the field as a user would spell it ({@code spaceId}, {@code sequence})
   * @param rule what the field must be, phrased to follow the field name ({@code "must be >= 0"})
   * @param value the offending value; long values are shortened in the message
   */
  public InvalidValueException(String field, String rule, Object value) {
    this(field, rule, show(value), true);
  }

  private InvalidValueException(String field, String rule, String shownValue, boolean shown) {
    super(field + " " + rule + ", was " + shownValue);
    this.field = field;
    this.rule = rule;
    this.shownValue = shownValue;
  }

  /**
   * The same rejection under another field name, for callers that know where the value came from
   * ({@code blocks[3].feed_id} rather than {@code feedId}).
   */
  public InvalidValueException withField(String newField) {
    InvalidValueException renamed = new InvalidValueException(newField, rule, shownValue, true);
    renamed.initCause(this);
    return renamed;
  }

  /** The field whose value was rejected, e.g. {@code feedId}. */
  public String field() {
    return field;
  }

  /** The rule it broke, e.g. {@code must be >= 0}. */
  public String rule() {
    return rule;
  }

  static String show(Object value) {
    if (value == null) {
      return "null";
    }
    if (!(value instanceof CharSequence)) {
      return String.valueOf(value);
    }
    String text = value.toString();
    StringBuilder shown = new StringBuilder("'");
    int limit = Math.min(text.length(), SHOWN_CHARS);
    for (int i = 0; i < limit; i++) {
      char c = text.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        shown.append(String.format("\\u%04x", (int) c));
      } else {
        shown.append(c);
      }
    }
    shown.append('\'');
    if (text.length() > SHOWN_CHARS) {
      shown.append("... (").append(text.length()).append(" chars)");
    }
    return shown.toString();
  }
}
