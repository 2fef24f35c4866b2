package dev.feedstore.bench;

import dev.feedstore.core.ActorId;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.HistoryChain;
import dev.feedstore.core.Predecessor;
import dev.feedstore.core.Sequence;
import java.time.Clock;
import java.util.Optional;
import java.util.Random;
import java.util.function.LongSupplier;
import java.util.zip.CRC32C;

/**
 * What a link of the history chain costs the authority per block it positions, now that it digests
 * the block's content: a block of 256 bytes of data (as the other parts write) beside the same block
 * without data (about what a link over the key alone cost), and a block of 1 MiB (the default
 * {@code block-bytes}) beside the CRC32C the store computes over the same data for every block it
 * writes. Computed in this JVM, one after the other, after a warm-up. Not thread-safe.
 */
final class ChainBench {
  private static final int SMALL_BYTES = 256;
  private static final int LARGE_BYTES = 1 << 20;

  private final ResultTable table;
  private final int blocks;
  private final PerBlockTimer timer = new PerBlockTimer();

  /**
   * @param blocks how many small blocks each candidate links, measured (as many again to warm up);
   *     large blocks are a thousandth of that, at least 10
   */
  ChainBench(ResultTable table, int blocks) {
    this.table = table;
    this.blocks = blocks;
  }

  void run() {
    Random random = new Random(12);
    FeedId feed = FeedId.generate(Clock.systemUTC(), random);
    BlockKey key = new BlockKey(feed, ActorId.of("bench-author-0123456789"), new Sequence(41));
    Optional<Predecessor> predecessor = Optional.of(new Predecessor(key.actorId(), new Sequence(40)));
    Block empty = Block.unpositioned(key, predecessor, 1_767_225_600_000L, BlockData.EMPTY);
    Block small = Block.unpositioned(key, predecessor, 1_767_225_600_000L, data(random, SMALL_BYTES));
    Block large = Block.unpositioned(key, predecessor, 1_767_225_600_000L, data(random, LARGE_BYTES));
    byte[] largeData = large.data().toByteArray();
    int largeBlocks = Math.max(10, blocks / 1000);

    LongSupplier linkEmpty = () -> HistoryChain.next(HistoryChain.START, empty);
    LongSupplier linkSmall = () -> HistoryChain.next(HistoryChain.START, small);
    LongSupplier linkLarge = () -> HistoryChain.next(HistoryChain.START, large);
    LongSupplier crcLarge = () -> {
      CRC32C crc = new CRC32C();
      crc.update(largeData, 0, largeData.length);
      return crc.getValue();
    };
    timer.nanosPerBlock(linkEmpty, blocks);
    timer.nanosPerBlock(linkSmall, blocks);
    timer.nanosPerBlock(linkLarge, largeBlocks);
    timer.nanosPerBlock(crcLarge, largeBlocks);
    double emptyNanos = timer.nanosPerBlock(linkEmpty, blocks);
    double smallNanos = timer.nanosPerBlock(linkSmall, blocks);
    double largeMicros = timer.nanosPerBlock(linkLarge, largeBlocks) / 1000;
    double crcMicros = timer.nanosPerBlock(crcLarge, largeBlocks) / 1000;
    Progress.say("chain: link of a block with 256 bytes %.0f ns, without data %.0f ns; with 1 MiB %.0f us"
        + " (CRC32C of 1 MiB %.0f us) (sink %d)", smallNanos, emptyNanos, largeMicros, crcMicros, timer.sinkBit());
    table.add("chain.link_256b", smallNanos, "ns/block", emptyNanos, ResultTable.Target.NONE);
    table.add("chain.link_no_data", emptyNanos, "ns/block");
    table.add("chain.link_1mib", largeMicros, "us/block", crcMicros, ResultTable.Target.NONE);
    table.note("chain.*: one link of the history chain (HistoryChain.next) in this JVM, over a block with a"
        + " 26-character feed id, a 23-character actor id and a predecessor; " + blocks + " blocks of 256 bytes"
        + " (baseline: the same block without data, about a link over the key alone) and " + largeBlocks
        + " of 1 MiB (baseline: CRC32C of the same data, which the store computes for every block it writes),"
        + " after as many to warm up");
  }

  private static BlockData data(Random random, int size) {
    byte[] bytes = new byte[size];
    random.nextBytes(bytes);
    return BlockData.copyOf(bytes);
  }
}
