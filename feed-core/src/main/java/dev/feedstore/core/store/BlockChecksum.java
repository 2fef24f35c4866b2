package dev.feedstore.core.store;

import dev.feedstore.core.Block;
import dev.feedstore.core.Predecessor;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The checksum stored with every block: CRC32C (the JDK's, computed with the processor's CRC
 * instructions where it has them) over the block's key and author-fixed content, as stored; every
 * store computes it the same way. The bytes, in order: the feed id, a zero byte, the actor id, a zero byte, the sequence (8 bytes, big
 * endian), then 0 for no predecessor or 1, the predecessor's actor id, a zero byte and its sequence,
 * then the timestamp (8 bytes) and the data. Text is UTF-8 (ids are ASCII). The position is not
 * covered: the authority assigns it later and a replica's recovery changes it (positions are checked
 * against the authority by the rollback signals instead).
 *
 * <p>CRC32C finds every change of up to 32 consecutive bits and any other change but one in 2^32.
 * It is made to catch a disk or a file that changed by accident, not a forger, who could write a
 * matching checksum as easily as the data. Stateless and thread-safe.
 */
public final class BlockChecksum {
  /** Zero bytes after three ids, two sequences, a flag and the timestamp. */
  private static final int FIXED_BYTES = 3 + 8 + 1 + 8 + 8;

  private BlockChecksum() {}

  /** The checksum of a block as it will be stored under its feed id. */
  public static int of(Block block, byte[] data) {
    Predecessor predecessor = block.predecessor().orElse(null);
    return of(block.feedId().value(), block.actorId().value(), block.sequence().value(),
        predecessor == null ? null : predecessor.actorId().value(),
        predecessor == null ? 0 : predecessor.sequence().value(), block.timestamp(), data);
  }

  /**
   * The checksum of a block's stored values.
   *
   * @param prevActorId null for a block without predecessor (then {@code prevSequence} is ignored)
   */
  public static int of(String feedId, String actorId, long sequence, String prevActorId, long prevSequence, long timestamp,
      byte[] data) {
    int texts = feedId.length() + actorId.length() + (prevActorId == null ? 0 : prevActorId.length());
    // A char takes at most three bytes in UTF-8 (a surrogate pair four, for two chars).
    ByteBuffer head = ByteBuffer.allocate(3 * texts + FIXED_BYTES);
    putText(head, feedId);
    head.put((byte) 0);
    putText(head, actorId);
    head.put((byte) 0);
    head.putLong(sequence);
    if (prevActorId == null) {
      head.put((byte) 0);
    } else {
      head.put((byte) 1);
      putText(head, prevActorId);
      head.put((byte) 0);
      head.putLong(prevSequence);
    }
    head.putLong(timestamp);
    CRC32C crc = new CRC32C();
    crc.update(head.array(), 0, head.position());
    crc.update(data, 0, data.length);
    return (int) crc.getValue();
  }

  private static void putText(ByteBuffer head, String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c >= 0x80) {
        head.put(text.substring(i).getBytes(StandardCharsets.UTF_8));
        return;
      }
      head.put((byte) c);
    }
  }
}
