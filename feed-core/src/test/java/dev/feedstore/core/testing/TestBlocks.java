package dev.feedstore.core.testing;

import dev.feedstore.core.ActorId;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.Predecessor;
import dev.feedstore.core.Sequence;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.Random;

/** Builders of blocks and ids for tests, deterministic where it helps. */
public final class TestBlocks {
  private TestBlocks() {}

  private static final Random RANDOM = new Random(42);

  /** A feed id from a fixed clock and a seeded random, distinct on every call. */
  public static synchronized FeedId feedId() {
    return FeedId.generate(Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC), RANDOM);
  }

  public static BlockKey key(FeedId feed, String actor, long sequence) {
    return new BlockKey(feed, new ActorId(actor), new Sequence(sequence));
  }

  /** An unpositioned block with no predecessor and "actor/sequence" as its data. */
  public static Block block(FeedId feed, String actor, long sequence) {
    return Block.unpositioned(key(feed, actor, sequence), Optional.empty(), 1_000 + sequence,
        BlockData.utf8(actor + "/" + sequence));
  }

  public static Block block(FeedId feed, String actor, long sequence, String data) {
    return Block.unpositioned(key(feed, actor, sequence), Optional.empty(), 1_000 + sequence, BlockData.utf8(data));
  }

  public static Block positioned(FeedId feed, String actor, long sequence, long position) {
    return block(feed, actor, sequence).withPosition(Position.of(position));
  }

  /** A block whose predecessor is {@code previous}. */
  public static Block after(Block previous, String actor, long sequence) {
    return block(previous.feedId(), actor, sequence).withPredecessor(Optional.of(Predecessor.of(previous.key())));
  }

  public static BlockData bytes(int size) {
    byte[] data = new byte[size];
    for (int i = 0; i < size; i++) {
      data[i] = (byte) i;
    }
    return BlockData.copyOf(data);
  }
}
