package dev.feedstore.server.testing;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.WireMapping;
import dev.feedstore.proto.v1.AppendRequest;
import java.util.Arrays;
import java.util.List;

/** Wire messages for tests. */
public final class Wire {
  private Wire() {}

  /** An unpositioned wire block with "actor/sequence" as its data. */
  public static dev.feedstore.proto.v1.Block block(FeedId feed, String actor, long sequence) {
    return WireMapping.toWire(TestBlocks.block(feed, actor, sequence));
  }

  public static dev.feedstore.proto.v1.Block block(FeedId feed, String actor, long sequence, String data) {
    return WireMapping.toWire(TestBlocks.block(feed, actor, sequence, data));
  }

  public static dev.feedstore.proto.v1.Block block(Block domain) {
    return WireMapping.toWire(domain);
  }

  public static AppendRequest append(String space, dev.feedstore.proto.v1.Block... blocks) {
    return append(space, Arrays.asList(blocks));
  }

  public static AppendRequest append(String space, List<dev.feedstore.proto.v1.Block> blocks) {
    return AppendRequest.newBuilder().setRequestId("r-" + System.nanoTime()).setSpaceId(space)
        .addAllBlocks(blocks).build();
  }

  /** {@code count} blocks of one feed and actor, sequences from {@code first}. */
  public static List<dev.feedstore.proto.v1.Block> blocks(FeedId feed, String actor, long first, int count) {
    dev.feedstore.proto.v1.Block[] out = new dev.feedstore.proto.v1.Block[count];
    for (int i = 0; i < count; i++) {
      out[i] = block(feed, actor, first + i);
    }
    return Arrays.asList(out);
  }
}
