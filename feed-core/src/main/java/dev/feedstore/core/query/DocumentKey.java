package dev.feedstore.core.query;

import dev.feedstore.core.json.JsonNumber;
import dev.feedstore.core.json.JsonPointer;
import dev.feedstore.core.json.JsonString;
import dev.feedstore.core.json.JsonValue;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Which document a version belongs to: its feed ({@link #FEED}, the default: a feed is one
 * document), or the value a JSON pointer selects in its content (so one feed can hold many
 * documents, and one document can have versions in several feeds of the scope).
 *
 * <p>A pointer's value keys a document when it is a string, or an integer written without fraction
 * or exponent within int64 ({@code -0} is the document {@code 0}); any other value, a pointer that
 * resolves to nothing, or content that is not JSON makes no document: the version belongs to none.
 * Thread-safe (immutable).
 */
public record DocumentKey(Optional<JsonPointer> pointer) {
  /** Each feed is one document, keyed by its id. */
  public static final DocumentKey FEED = new DocumentKey(Optional.empty());

  /**
   * Documents keyed by the value {@code pointer} selects, or by feed when it is empty.
   *
   * @throws NullPointerException if {@code pointer} is null
   */
  public DocumentKey {
    Objects.requireNonNull(pointer, "pointer");
  }

  /** Documents keyed by the value at {@code pointer}. */
  public static DocumentKey pointer(JsonPointer pointer) {
    return new DocumentKey(Optional.of(pointer));
  }

  /** The document {@code version} belongs to, if any (worked out once per block and key). */
  public Optional<DocumentId> idOf(ParsedBlock version) {
    return version.documentId(this);
  }

  /** The document {@code version} belongs to, read from it. */
  Optional<DocumentId> read(ParsedBlock version) {
    if (pointer.isEmpty()) {
      return Optional.of(DocumentId.of(version.block().feedId().value()));
    }
    JsonValue value = version.json().map(pointer.get()::resolve).orElse(null);
    if (value instanceof JsonString string) {
      return Optional.of(new DocumentId.Text(string.value()));
    }
    if (value instanceof JsonNumber number && number.writtenAsInteger()) {
      OptionalLong integer = number.longValueExact();
      if (integer.isPresent()) {
        return Optional.of(DocumentId.of(integer.getAsLong()));
      }
    }
    return Optional.empty();
  }

  /** {@code feed}, or the pointer's text, as the query's forms write it. */
  public String fieldName() {
    return pointer.map(JsonPointer::toString).orElse(MetadataField.FEED.fieldName());
  }

  @Override
  public String toString() {
    return fieldName();
  }
}
