package dev.feedstore.core.sync;

import dev.feedstore.core.Block;
import dev.feedstore.core.Sequence;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The new sequence of a published block that must leave its key (the authority holds other content
 * there). Several replicas may hold copies of such a block; each derives the same sequence from the
 * block's content, so all copies land under one key and the authority stores the block once. The
 * sequences lie above 2^40, far from the sequences authors count up from 0, and the {@code attempt}
 * steps through further candidates should one be taken. Stateless.
 */
final class OrphanSequence {
  static final long BASE = 1L << 40;
  private static final long SPREAD = (1L << 40) - 1;

  private OrphanSequence() {}

  static Sequence of(Block block, int attempt) {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java platform", e);
    }
    digest.update(block.feedId().value().getBytes(StandardCharsets.US_ASCII));
    digest.update(block.actorId().value().getBytes(StandardCharsets.US_ASCII));
    digest.update(ByteBuffer.allocate(Long.BYTES * 3)
        .putLong(block.sequence().value())
        .putLong(block.timestamp())
        .putLong(block.predecessor().map(p -> p.sequence().value()).orElse(-1L))
        .array());
    block.predecessor().ifPresent(p -> digest.update(p.actorId().value().getBytes(StandardCharsets.US_ASCII)));
    digest.update(block.data().asReadOnlyBuffer());
    long hash = ByteBuffer.wrap(digest.digest()).getLong();
    return new Sequence(BASE + (hash & SPREAD) + attempt);
  }
}
