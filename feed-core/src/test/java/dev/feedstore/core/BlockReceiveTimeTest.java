package dev.feedstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.testing.TestBlocks;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** A block's receive time: set with a position, gone without one, and no part of what the block is. */
class BlockReceiveTimeTest {
  private final Block positioned = TestBlocks.positioned(TestBlocks.feedId(), "a", 0, 3);

  @Test
  void aReceiveTimeGoesWithThePosition() {
    Block received = positioned.withReceivedAt(1_000);
    assertEquals(OptionalLong.of(1_000), received.receivedAt());
    assertEquals(OptionalLong.of(1_000), received.withPosition(Position.of(3)).receivedAt(), "the same position keeps it");
    assertEquals(OptionalLong.empty(), received.withPosition(Position.of(4)).receivedAt(), "another position drops it");
    assertEquals(OptionalLong.empty(), received.withoutPosition().receivedAt());
  }

  @Test
  void twoBlocksAreEqualWhateverTheyKnowOfTheirReceiveTime() {
    Block received = positioned.withReceivedAt(1_000);
    assertEquals(positioned, received);
    assertEquals(positioned.hashCode(), received.hashCode());
    assertTrue(!positioned.equals(received.withPosition(Position.of(4))), "the position still counts");
  }

  @Test
  void aReceiveTimeNeedsAPositionAndATimeAfter1970() {
    InvalidValueException unpositioned = assertThrows(InvalidValueException.class,
        () -> positioned.withoutPosition().withReceivedAt(1_000));
    assertTrue(unpositioned.getMessage().contains("receivedAt must be absent on a block without a position"),
        unpositioned.getMessage());
    InvalidValueException negative = assertThrows(InvalidValueException.class, () -> positioned.withReceivedAt(-1));
    assertTrue(negative.getMessage().contains("receivedAt must be >= 0"), negative.getMessage());
  }
}
