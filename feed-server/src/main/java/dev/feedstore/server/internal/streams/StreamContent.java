package dev.feedstore.server.internal.streams;

import java.util.Locale;

/**
 * The content type of a Durable Stream, as given at creation: compared without case and
 * whitespace ({@code TEXT/PLAIN} is {@code text/plain}), returned as given. JSON mode is {@code
 * application/json} (any parameters); Server-Sent Events carry {@code text/*} and JSON streams as
 * text and every other type in base64. Immutable.
 *
 * @param value the type as the stream's creator wrote it
 */
record StreamContent(String value) {
  /** What a stream created without a {@code Content-Type} holds. */
  static final StreamContent DEFAULT = new StreamContent("application/octet-stream");

  StreamContent {
    value = value.strip();
  }

  /** The type compared: lower case, without whitespace. */
  String normalized() {
    return value.toLowerCase(Locale.ROOT).replaceAll("\\s+", "");
  }

  boolean sameAs(StreamContent other) {
    return normalized().equals(other.normalized());
  }

  /** The media type without parameters. */
  String mediaType() {
    String n = normalized();
    int semicolon = n.indexOf(';');
    return semicolon < 0 ? n : n.substring(0, semicolon);
  }

  boolean isJson() {
    return mediaType().equals("application/json");
  }

  /** True when events carry the data as text; false when they carry it in base64. */
  boolean isText() {
    return isJson() || mediaType().startsWith("text/");
  }
}
