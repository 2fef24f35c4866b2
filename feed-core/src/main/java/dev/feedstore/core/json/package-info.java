/**
 * Strict JSON: the reader that decides what is JSON (RFC 8259, one value in UTF-8, with the limits
 * stated on {@link dev.feedstore.core.json.JsonReader}), the values it yields ({@link
 * dev.feedstore.core.json.JsonValue}, compared structurally, numbers as exact decimals, strings by
 * Unicode code point), JSON pointers (RFC 6901, {@link dev.feedstore.core.json.JsonPointer}) and the
 * canonical text of a value ({@link dev.feedstore.core.json.JsonWriter}).
 *
 * <p>This reader is the reference: a store may prefilter with its own JSON functions, but whether a
 * block is JSON, and what its values are, is decided here.
 */
package dev.feedstore.core.json;
