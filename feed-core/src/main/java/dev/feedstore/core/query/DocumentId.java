package dev.feedstore.core.query;

import dev.feedstore.core.json.CodePointOrder;
import dev.feedstore.core.json.JsonNumber;
import dev.feedstore.core.json.JsonString;
import dev.feedstore.core.json.JsonValue;
import java.util.Objects;

/**
 * The key of a document: an integer or a string ({@code 7} and {@code "7"} are two documents).
 * Ordered integers first, by value, then strings by code point. Thread-safe (immutable).
 */
public sealed interface DocumentId extends Comparable<DocumentId> permits DocumentId.Int, DocumentId.Text {

  /** The integer key {@code value}. */
  static DocumentId of(long value) {
    return new Int(value);
  }

  /**
   * @throws IllegalArgumentException if {@code value} holds a lone surrogate
   */
  static DocumentId of(String value) {
    return new Text(JsonString.of(value).value());
  }

  /** The key as a JSON value: a number or a string. */
  JsonValue toJson();

  @Override
  default int compareTo(DocumentId other) {
    if (this instanceof Int a && other instanceof Int b) {
      return Long.compare(a.value, b.value);
    }
    if (this instanceof Text a && other instanceof Text b) {
      return CodePointOrder.compare(a.value, b.value);
    }
    return this instanceof Int ? -1 : 1;
  }

  /** An integer key. */
  record Int(long value) implements DocumentId {
    // equals and hashCode written out: results look keys up on every change, and the generated
    // ones go through method handles that profiles showed on that path.
    @Override
    public boolean equals(Object other) {
      return other instanceof Int that && value == that.value;
    }

    @Override
    public int hashCode() {
      return Long.hashCode(value);
    }

    @Override
    public JsonValue toJson() {
      return JsonNumber.of(value);
    }

    @Override
    public String toString() {
      return Long.toString(value);
    }
  }

  /** A string key. */
  record Text(String value) implements DocumentId {
    /**
     * The string key {@code value}.
     *
     * @throws NullPointerException if {@code value} is null
     */
    public Text {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Text that && value.equals(that.value);
    }

    @Override
    public int hashCode() {
      return value.hashCode();
    }

    @Override
    public JsonValue toJson() {
      return JsonString.of(value);
    }

    @Override
    public String toString() {
      return toJson().toString();
    }
  }
}
