package dev.feedstore.core;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The immutable content of a block. Copies on the way in and on the way out, so no caller can
 * change a block after it was made; thread-safe. Size limits are not a property of the value; they are checked
 * against {@link Limits#maxBlockBytes()} where blocks enter a store.
 */
public final class BlockData {
  /** No bytes. */
  public static final BlockData EMPTY = new BlockData(new byte[0]);

  private final byte[] bytes;

  private BlockData(byte[] bytes) {
    this.bytes = bytes;
  }

  /** A copy of {@code bytes}. */
  public static BlockData copyOf(byte[] bytes) {
    return bytes.length == 0 ? EMPTY : new BlockData(bytes.clone());
  }

  /** A copy of the remaining bytes of {@code buffer}; the buffer's position is not moved. */
  public static BlockData copyOf(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes.length == 0 ? EMPTY : new BlockData(bytes);
  }

  /** The UTF-8 bytes of {@code text}. */
  public static BlockData utf8(String text) {
    return new BlockData(text.getBytes(StandardCharsets.UTF_8));
  }

  /** How many bytes it holds. */
  public int size() {
    return bytes.length;
  }

  /** A copy of the bytes. */
  public byte[] toByteArray() {
    return bytes.clone();
  }

  /** A read-only view of the bytes, without copying. */
  public ByteBuffer asReadOnlyBuffer() {
    return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
  }

  /** The bytes decoded as UTF-8 (malformed input is replaced, never rejected). */
  public String toStringUtf8() {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof BlockData that && Arrays.equals(bytes, that.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return "BlockData[" + bytes.length + " bytes]";
  }
}
