package dev.feedstore.server.internal.streams;

/**
 * Where a read of a Durable Stream starts: the protocol's {@code -1} (the beginning of what the
 * stream still holds), its {@code now} (the tail, reading nothing), or after an offset. An offset
 * is checked against the stream: past its tail it is one this server never gave (400); below what
 * retention removed of the stream it would skip data (410). Immutable.
 */
sealed interface StreamStart {
  /** {@code -1}: from the beginning of what the stream holds. */
  StreamStart BEGINNING = new Beginning();
  /** {@code now}: a look at the tail. */
  StreamStart TAIL = new Tail();

  /** After {@code offset}. */
  static StreamStart after(StreamOffset offset) {
    return new After(offset);
  }

  record Beginning() implements StreamStart {}

  record Tail() implements StreamStart {}

  record After(StreamOffset offset) implements StreamStart {}
}
