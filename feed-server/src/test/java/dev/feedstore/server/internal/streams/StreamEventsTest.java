package dev.feedstore.server.internal.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.feedstore.core.ActorId;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.Predecessor;
import dev.feedstore.core.Sequence;
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
 * The readers of a Durable Stream that send the same batch with the same cursor write the same data
 * and control events, encoded once; the data event is shared even where the cursors differ; a data
 * line break always starts a new {@code data:} line.
 */
class StreamEventsTest {
  static final StreamContent TEXT = new StreamContent("text/plain");
  final FeedId feed = TestBlocks.feedId();
  final List<TailEntry> entries = new ArrayList<>();

  StreamEventsTest() {
    String[] texts = {"one\n", "two\r\nthree", "\rfour"};
    for (int i = 0; i < texts.length; i++) {
      Block block = new Block(new BlockKey(feed, ActorId.of("http"), new Sequence(i)),
          i == 0 ? Optional.empty() : Optional.of(new Predecessor(ActorId.of("http"), new Sequence(i - 1))), 1,
          BlockData.copyOf(texts[i].getBytes(StandardCharsets.UTF_8)), Position.of(i + 1L));
      entries.add(TailEntry.of(block, Optional.empty()));
    }
  }

  @Test
  void readersSendingTheSameBatchWithTheSameCursorWriteTheSameBytesEncodedOnce() {
    byte[] first = StreamEvents.live(TEXT, entries, "7");
    for (int reader = 0; reader < 999; reader++) {
      assertSame(first, StreamEvents.live(TEXT, new ArrayList<>(entries), "7"));
    }
    assertEquals("event: data\ndata:one\ndata:two\ndata:three\ndata:four\n\n"
        + StreamEvents.control(new StreamOffset(3), "7", true), new String(first, StandardCharsets.UTF_8));
    assertEquals(new String(first, StandardCharsets.UTF_8), StreamEvents.blocks(TEXT,
        entries.stream().map(TailEntry::block).toList(), "7", true), "as a batch read from the store");
  }

  @Test
  void anotherCursorOrContentWritesItsOwnEvents() {
    byte[] seven = StreamEvents.live(TEXT, entries, "7");
    byte[] eight = StreamEvents.live(TEXT, entries, "8");
    byte[] binary = StreamEvents.live(StreamContent.DEFAULT, entries, "7");

    assertNotSame(seven, eight);
    assertEquals(new String(seven, StandardCharsets.UTF_8).replace("\"7\"", "\"8\""),
        new String(eight, StandardCharsets.UTF_8));
    assertEquals(StreamEvents.blocks(StreamContent.DEFAULT, entries.stream().map(TailEntry::block).toList(), "7",
        true), new String(binary, StandardCharsets.UTF_8));
  }

  @Test
  void readersBehindSendingTheSamePageWriteTheSameBytesEncodedOnce() {
    List<Block> blocks = entries.stream().map(TailEntry::block).toList();
    Page page = new Page(blocks, true, Position.of(9), Optional.empty(), Map.of(), OptionalLong.empty(),
        OptionalLong.empty(), Position.NONE);
    Encodings kept = new Encodings();

    byte[] first = StreamEvents.page(TEXT, page, kept, "7", false);

    assertSame(first, StreamEvents.page(TEXT, page, kept, "7", false));
    assertEquals(StreamEvents.blocks(TEXT, blocks, "7", false), new String(first, StandardCharsets.UTF_8));
  }

  @Test
  void liveEventsPutTogetherFromEachBlocksPartAreThoseOfTheBatchReadWhole() {
    String[][] batches = {
        {"one\n", "two\r\nthree", "\rfour"},
        {"a\r", "\nb", "c\r"}, // a line break across two blocks: encoded whole
        {"", "x\n\n", "\r\ny"},
        {"[1,2]", "[]", "{\"a\":\"b\"}", "not json", "[\"l1\\nl2\", 3]"},
        {"[1,\r\n2]\r", "[3]"}};
    StreamContent json = new StreamContent("application/json");
    for (String[] texts : batches) {
      List<TailEntry> batch = new ArrayList<>();
      for (int i = 0; i < texts.length; i++) {
        Block block = new Block(new BlockKey(feed, ActorId.of("http"), new Sequence(i)),
            i == 0 ? Optional.empty() : Optional.of(new Predecessor(ActorId.of("http"), new Sequence(i - 1))), 1,
            BlockData.copyOf(texts[i].getBytes(StandardCharsets.UTF_8)), Position.of(i + 1L));
        batch.add(TailEntry.of(block, Optional.empty()));
      }
      List<Block> blocks = batch.stream().map(TailEntry::block).toList();
      for (StreamContent content : List.of(TEXT, json, StreamContent.DEFAULT)) {
        for (int from = 0; from < batch.size(); from++) { // readers at each point of the batch
          List<TailEntry> sent = List.copyOf(batch.subList(from, batch.size()));
          assertEquals(StreamEvents.blocks(content, blocks.subList(from, blocks.size()), "7", true),
              new String(StreamEvents.live(content, sent, "7"), StandardCharsets.UTF_8),
              content + " from block " + from + " of " + List.of(texts));
        }
      }
    }
  }
}
