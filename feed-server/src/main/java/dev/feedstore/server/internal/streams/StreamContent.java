package dev.feedstore.server.internal.streams;

import java.util.Locale;

/**
 * The content type of a Durable Stream, as given at creation: compared without case and
 * whitespace ({@code TEXT/PLAIN} is {@code text/plain}), returned as given. JSON mode is {@code
 * application/json} (any parameters); Server-Sent Events carry {@code text/*} and JSON streams as
 * text and every other type in base64. What it says is worked out once, when it is made: a live
 * stream asks for every batch it sends. Immutable.
 */
final class StreamContent {
  /** What a stream created without a {@code Content-Type} holds. */
  static final StreamContent DEFAULT = new StreamContent("application/octet-stream");

  private final String value;
  private final String normalized;
  private final boolean json;
  private final boolean text;

  /** @param value the type as the stream's creator wrote it */
  StreamContent(String value) {
    this.value = value.strip();
    this.normalized = this.value.toLowerCase(Locale.ROOT).replaceAll("\\s+", "");
    int semicolon = normalized.indexOf(';');
    String mediaType = semicolon < 0 ? normalized : normalized.substring(0, semicolon);
    this.json = mediaType.equals("application/json");
    this.text = json || mediaType.startsWith("text/");
  }

  /** The type as the stream's creator wrote it, without surrounding whitespace. */
  String value() {
    return value;
  }

  boolean sameAs(StreamContent other) {
    return normalized.equals(other.normalized);
  }

  boolean isJson() {
    return json;
  }

  /** True when events carry the data as text; false when they carry it in base64. */
  boolean isText() {
    return text;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof StreamContent content && value.equals(content.value);
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }

  @Override
  public String toString() {
    return value;
  }
}
