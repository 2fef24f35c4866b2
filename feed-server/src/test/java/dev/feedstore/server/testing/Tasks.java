package dev.feedstore.server.testing;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.AppendResponse;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import java.util.ArrayList;
import java.util.List;

/**
 * Versions of task documents appended to space {@code s}, one feed, one commit per call: each
 * version written {@code id:status} or {@code id:status:rank}, stored as {@code {"id":..,
 * "status":"..", "rank":..}}. Not thread-safe.
 */
public final class Tasks {
  private final FeedSyncGrpc.FeedSyncBlockingStub stub;
  private final FeedId feed = TestBlocks.feedId();
  private long sequence;

  public Tasks(FeedSyncGrpc.FeedSyncBlockingStub stub) {
    this.stub = stub;
  }

  /** Appends the versions in one commit; returns the position of the last. */
  public long append(String... versions) {
    List<Block> blocks = new ArrayList<>();
    for (String version : versions) {
      String[] parts = version.split(":");
      blocks.add(Wire.block(feed, "a", sequence++, "{\"id\":" + parts[0] + ",\"status\":\"" + parts[1] + "\""
          + (parts.length > 2 ? ",\"rank\":" + parts[2] : "") + "}"));
    }
    AppendResponse answer = stub.append(Wire.append("s", blocks));
    return answer.getPositions(answer.getPositionsCount() - 1);
  }
}
