package dev.feedstore.server.internal.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.internal.spaces.Encodings;
import dev.feedstore.server.internal.spaces.Page;
import dev.feedstore.server.internal.spaces.TailEntry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * A space's events are the same for every stream that sends them: a batch of live blocks, and a page
 * read for the streams behind, are each encoded once and the same bytes written to every stream.
 */
class SseEventTest {
  final FeedId feed = TestBlocks.feedId();
  final List<TailEntry> entries = new ArrayList<>();

  SseEventTest() {
    for (long p = 1; p <= 4; p++) {
      entries.add(TailEntry.of(TestBlocks.positioned(feed, "a", p, p), p == 2 ? Optional.of(Namespace.of("chat"))
          : Optional.empty()));
    }
  }

  @Test
  void streamsSendingTheSameBatchWriteTheSameBytesEncodedOnce() {
    byte[] first = SseEvent.live(entries.subList(0, 4));
    for (int stream = 0; stream < 999; stream++) {
      assertSame(first, SseEvent.live(new ArrayList<>(entries.subList(0, 4))));
    }
    String expected = entries.stream().map(e -> SseEvent.block(e.block(), e.namespace())).reduce("", String::concat);
    assertEquals(expected, new String(first, StandardCharsets.UTF_8));
    assertNotSame(first, SseEvent.live(entries.subList(1, 4)), "another batch");
    assertSame(SseEvent.of(entries.get(3)), SseEvent.of(entries.get(3)), "each block's event is encoded once too");
  }

  @Test
  void streamsBehindSendingTheSamePageWriteTheSameBytesEncodedOnce() {
    List<Block> blocks = entries.stream().map(TailEntry::block).toList();
    Page page = new Page(blocks, false, Position.of(4), Optional.empty(), Map.of(feed, Namespace.of("chat")),
        OptionalLong.empty(), OptionalLong.empty(), Position.NONE);
    Encodings kept = new Encodings();

    byte[] first = SseEvent.page(page, kept);

    assertSame(first, SseEvent.page(page, kept));
    assertEquals(new String(SseEvent.page(page), StandardCharsets.UTF_8), new String(first, StandardCharsets.UTF_8));
  }
}
