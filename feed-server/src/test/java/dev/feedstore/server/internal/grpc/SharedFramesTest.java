package dev.feedstore.server.internal.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.ServerToken;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.server.internal.live.LiveSink;
import dev.feedstore.server.internal.spaces.TailEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SharedFramesTest {
  final FeedId feed = TestBlocks.feedId();
  final List<TailEntry> entries = new ArrayList<>();
  final AtomicInteger built = new AtomicInteger();

  SharedFramesTest() {
    for (long p = 1; p <= 5; p++) {
      entries.add(TailEntry.of(TestBlocks.positioned(feed, "a", p, p), Optional.empty()));
    }
  }

  static LiveSink.Head head(long maxPosition) {
    return new LiveSink.Head(ServerToken.of("token-1"), maxPosition, Optional.empty(), OptionalLong.empty(),
        OptionalLong.empty(), 0, OptionalLong.empty());
  }

  WatchFrame frame(String requestId, LiveSink.Head head, List<TailEntry> batch) {
    SharedFrames frames = batch.get(batch.size() - 1).encodings().get(SharedFrames.SHARED, SharedFrames::new);
    return frames.frame(requestId, head, batch, () -> {
      built.incrementAndGet();
      return WatchFrame.of(WatchEvent.newBuilder().setRequestId(requestId).setMaxPosition(head.maxPosition()).build());
    });
  }

  @Test
  void streamsSendingTheSameBatchWithTheSameFieldsShareOneFrameBuiltOnce() {
    WatchFrame first = frame("", head(5), entries.subList(0, 5));
    for (int stream = 0; stream < 999; stream++) {
      assertSame(first, frame("", head(5), new ArrayList<>(entries.subList(0, 5))));
    }
    assertEquals(1, built.get());
  }

  @Test
  void anyDifferenceInTheFieldsOrTheBlocksBuildsAFrameOfItsOwn() throws Exception {
    WatchFrame shared = frame("", head(5), entries.subList(0, 5));

    WatchFrame otherRequest = frame("r-2", head(5), entries.subList(0, 5));
    WatchFrame otherMax = frame("", head(6), entries.subList(0, 5));
    WatchFrame otherBlocks = frame("", head(5), List.of(entries.get(0), entries.get(2), entries.get(4)));

    for (WatchFrame other : List.of(otherRequest, otherMax, otherBlocks)) {
      assertNotSame(shared, other);
    }
    assertEquals("r-2", WatchEvent.parseFrom(otherRequest.bytes()).getRequestId());
    assertEquals(6, WatchEvent.parseFrom(otherMax.bytes()).getMaxPosition());
    assertEquals(4, built.get());
  }

  @Test
  void streamsAtTwoDifferentPointsDoNotEvictEachOthersFrame() {
    WatchFrame fromOne = frame("", head(5), entries.subList(0, 5));
    WatchFrame fromFour = frame("", head(5), entries.subList(3, 5));

    assertSame(fromOne, frame("", head(5), entries.subList(0, 5)));
    assertSame(fromFour, frame("", head(5), entries.subList(3, 5)));
    assertEquals(2, built.get());
  }
}
