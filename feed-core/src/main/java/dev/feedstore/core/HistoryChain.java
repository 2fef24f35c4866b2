package dev.feedstore.core;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A running hash of a space's history at the authority: the chain at position p is {@code next(chain
 * at p - 1, key of the block at p)}, and {@link #START} before position 1. Two histories have the
 * same chain at p only if they hold the same blocks at every position up to p, so a replica that
 * recorded the chain at its cursor can tell, from one number, whether an authority that kept its
 * token (a restore from backup) still has the history the replica pulled. Stateless and
 * thread-safe.
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

  /** The chain after {@code key} took the position following the one {@code previous} belongs to. */
  public static long next(long previous, BlockKey key) {
    MessageDigest digest = SHA256.get();
    digest.reset();
    digest.update(ByteBuffer.allocate(Long.BYTES).putLong(previous).array());
    digest.update(key.feedId().value().getBytes(StandardCharsets.US_ASCII));
    digest.update((byte) 0);
    digest.update(key.actorId().value().getBytes(StandardCharsets.US_ASCII));
    digest.update((byte) 0);
    digest.update(ByteBuffer.allocate(Long.BYTES).putLong(key.sequence().value()).array());
    return ByteBuffer.wrap(digest.digest()).getLong();
  }
}
