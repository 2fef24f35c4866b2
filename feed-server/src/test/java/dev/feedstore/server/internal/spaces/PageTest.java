package dev.feedstore.server.internal.spaces;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.testing.TestBlocks;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class PageTest {
  final FeedId early = TestBlocks.feedId();
  final FeedId late = TestBlocks.feedId();
  final List<Block> blocks = List.of(TestBlocks.positioned(early, "a", 0, 1), TestBlocks.positioned(early, "a", 1, 2),
      TestBlocks.positioned(late, "a", 0, 3));
  final Page page = new Page(blocks, true, Position.of(9), Optional.empty(),
      Map.of(early, Namespace.of("one"), late, Namespace.of("two")), OptionalLong.empty(), OptionalLong.of(77),
      Position.NONE);

  @Test
  void aPageAfterAPositionKeepsTheBlocksAboveItAndOnlyTheirNamespaces() {
    Page after = page.after(2);

    assertEquals(List.of(blocks.get(2)), after.blocks());
    assertEquals(Map.of(late, Namespace.of("two")), after.namespaces());
    assertEquals(OptionalLong.of(77), after.lastChain(), "the same last block");
    assertEquals(3, after.scannedTo(2), "more follow the same last block");
  }

  @Test
  void aPageAfterItsLastBlockHasNoBlockAndNoChain() {
    Page none = new Page(blocks, false, Position.of(3), Optional.empty(), Map.of(), OptionalLong.empty(),
        OptionalLong.of(77), Position.NONE).after(3);

    assertEquals(List.of(), none.blocks());
    assertEquals(OptionalLong.empty(), none.lastChain());
    assertEquals(3, none.scannedTo(3));
  }
}
