package dev.feedstore.core;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * A running hash of a space's history at the authority: the chain at position p is {@code next(chain
 * at p - 1, block at p)}, and {@link #START} before position 1. Each link digests the block's key,
 * its author-fixed content (predecessor, timestamp and data: what {@link Block#sameContentAs}
 * compares) and the authority's receive time, so two histories have the same chain at p only if
 * they hold the same blocks, with the same content, received at the same times, at every position
 * up to p: a block the authority lost and was given again at the same position, received anew, is
 * a rollback too, and the replay brings replicas its new receive time. A replica that recorded the chain at its cursor can tell
 * from one number whether an authority that kept its token (a restore from backup) still has the
 * history the replica pulled, including when a key came back with other content: an author restored
 * from an old backup of its own file writes new content under a key the lost history had used.
 *
 * <p>The content is digested itself, with the SHA-256 the link computes anyway, rather than through
 * the 32-bit CRC32C the SQLite store keeps per block: that checksum is made to catch bytes a disk
 * changed by accident, and two contents of one key would share it once in 2^32 times by chance, or
 * always when written to (CRC32C is linear). A link truncates SHA-256 to 64 bits; it costs one pass
 * over the block's data, on the authority only, when the block gets its position.
 *
 * <p>Only the authority computes links, each from the link stored at the position before, and
 * replicas compare only values the authority reported; neither side ever recomputes a stored link.
 * So links stored by releases whose links digested the key only (the history chain's first form)
 * stay valid as they are: a space's chain covers keys up to the position where its authority was
 * upgraded and content from there on, and a replica's recorded chain keeps matching. A content
 * difference at a position handed out before the upgrade goes unnoticed as it did then; every
 * position handed out after it, every position re-issued after a rollback among them, is covered.
 * Receive times joined the links the same way: links stored before they did cover no receive time.
 *
 * <p>Stateless and thread-safe.
 */
public final class HistoryChain {
  /** The chain before the first position. */
  public static final long START = 0;

  private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java platform", e);
    }
  });

  private HistoryChain() {}

  /**
   * The chain after {@code block} took the position following the one {@code previous} belongs to.
   * The block's own position is not digested (it is where the link is stored).
   *
   * <p>The bytes digested, in order: {@code previous} (8 bytes, big endian), the feed id, a zero
   * byte, the actor id, a zero byte, the sequence (8 bytes), then 0 for no predecessor or 1, the
   * predecessor's actor id, a zero byte and its sequence (8 bytes), then the timestamp (8 bytes),
   * then 0 for no receive time or 1 and the receive time (8 bytes), then the data. Ids are ASCII and
   * hold no zero byte.
   */
  public static long next(long previous, Block block) {
    MessageDigest digest = SHA256.get();
    digest.reset();
    ByteBuffer head = head(block, Long.BYTES);
    head.putLong(0, previous);
    if (block.receivedAt().isEmpty()) {
      head.put((byte) 0);
    } else {
      head.put((byte) 1).putLong(block.receivedAt().getAsLong());
    }
    digest.update(head.array(), 0, head.position());
    digest.update(block.data().asReadOnlyBuffer());
    return ByteBuffer.wrap(digest.digest()).getLong();
  }

  /**
   * What a link digests of {@code block} between the previous link and the data (see {@link #next}),
   * for a store that computes links where it stores the blocks (the PostgreSQL store does, in the
   * statement that stores them): a link is the first 8 bytes, big endian, of the SHA-256 of the
   * previous link's 8 bytes, these bytes, the receive time's part (1 and the 8 bytes of the time the
   * store stamps) and the data.
   */
  public static byte[] head(Block block) {
    ByteBuffer head = head(block, 0);
    return Arrays.copyOf(head.array(), head.position());
  }

  /**
   * The head of {@code block} in a buffer, after {@code reserved} bytes left for the caller, with
   * room for the receive time's part after it.
   */
  private static ByteBuffer head(Block block, int reserved) {
    BlockKey key = block.key();
    Predecessor predecessor = block.predecessor().orElse(null);
    String prevActor = predecessor == null ? "" : predecessor.actorId().value();
    ByteBuffer head = ByteBuffer.allocate(reserved + 4 * Long.BYTES + 5 + key.feedId().value().length()
        + key.actorId().value().length() + prevActor.length());
    head.position(reserved);
    head.put(key.feedId().value().getBytes(StandardCharsets.US_ASCII)).put((byte) 0);
    head.put(key.actorId().value().getBytes(StandardCharsets.US_ASCII)).put((byte) 0);
    head.putLong(key.sequence().value());
    if (predecessor == null) {
      head.put((byte) 0);
    } else {
      head.put((byte) 1).put(prevActor.getBytes(StandardCharsets.US_ASCII)).put((byte) 0);
      head.putLong(predecessor.sequence().value());
    }
    head.putLong(block.timestamp());
    return head;
  }
}
