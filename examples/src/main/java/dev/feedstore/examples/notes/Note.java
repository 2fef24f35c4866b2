package dev.feedstore.examples.notes;

import dev.feedstore.core.ActorId;
import dev.feedstore.core.Position;
import dev.feedstore.core.json.JsonNumber;
import dev.feedstore.core.json.JsonObject;
import dev.feedstore.core.json.JsonString;
import dev.feedstore.core.json.JsonValue;
import dev.feedstore.core.query.Row;
import java.util.Objects;

/**
 * One note: a document of the notes namespace, keyed by its {@code /id}, as its current version
 * shows it ({@code {"id": ..., "text": ..., "createdAt": ...}}).
 *
 * @param id the note's id
 * @param author who wrote its current version
 * @param text the note
 * @param writtenAt the author's clock when the note was written, Unix ms
 * @param position the place the authority gave its current version, or {@link Position#NONE} while
 *     that is not sent
 */
public record Note(String id, ActorId author, String text, long writtenAt, Position position) {
  public Note {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(author, "author");
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(position, "position");
  }

  /** The note a row of the notes query shows. */
  static Note of(Row row) {
    JsonObject content = (JsonObject) row.content().orElseThrow(
        () -> new IllegalArgumentException("a note is JSON, the row of " + row.id() + " is not"));
    JsonValue text = content.get("text");
    JsonValue createdAt = content.get("createdAt");
    return new Note(((JsonString) row.id().toJson()).value(), row.version().block().actorId(),
        text instanceof JsonString string ? string.value() : "",
        createdAt instanceof JsonNumber number ? number.longValueExact().orElse(0) : 0, row.version().position());
  }

  /** True while the authority has not positioned the note's current version: it is on this replica only. */
  public boolean pending() {
    return !position.isAssigned();
  }
}
