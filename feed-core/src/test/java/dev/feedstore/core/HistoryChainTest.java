package dev.feedstore.core;

import static dev.feedstore.core.testing.TestBlocks.after;
import static dev.feedstore.core.testing.TestBlocks.block;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.feedstore.core.testing.TestBlocks;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HistoryChainTest {
  private static final FeedId FEED = TestBlocks.feedId();
  private static final long BEFORE = 0x1234_5678_9abc_def0L;

  @Test
  void aLinkDependsOnTheKeyAndOnWhatCameBefore() {
    Block first = block(FEED, "a", 0, "same");
    long one = HistoryChain.next(HistoryChain.START, first);
    assertNotEquals(one, HistoryChain.next(HistoryChain.START, first.withSequence(new Sequence(1))));
    assertNotEquals(one, HistoryChain.next(HistoryChain.START, block(FEED, "b", 0, "same")));
    assertNotEquals(one, HistoryChain.next(HistoryChain.START, block(TestBlocks.feedId(), "a", 0, "same")));
    assertNotEquals(one, HistoryChain.next(one, first), "the same block after another history");
  }

  @Test
  void theSameKeyWithOtherContentMakesAnotherLink() {
    Block written = after(block(FEED, "a", 0), "a", 1);
    long link = HistoryChain.next(BEFORE, written);
    Block otherData = new Block(written.key(), written.predecessor(), written.timestamp(), BlockData.utf8("other"),
        Position.NONE);
    Block otherTime = new Block(written.key(), written.predecessor(), written.timestamp() + 1, written.data(),
        Position.NONE);
    Block noPredecessor = written.withPredecessor(Optional.empty());
    Block otherPredecessorActor = written.withPredecessor(Optional.of(new Predecessor(ActorId.of("b"), new Sequence(0))));
    Block otherPredecessorSequence =
        written.withPredecessor(Optional.of(new Predecessor(ActorId.of("a"), new Sequence(7))));
    for (Block other : new Block[] {otherData, otherTime, noPredecessor, otherPredecessorActor,
        otherPredecessorSequence}) {
      assertEquals(written.key(), other.key());
      assertNotEquals(link, HistoryChain.next(BEFORE, other), other.toString());
    }
  }

  /** A block lost by the authority and given the same position again is received anew: another history. */
  @Test
  void theSameBlockReceivedAtAnotherTimeMakesAnotherLink() {
    Block positioned = after(block(FEED, "a", 0), "a", 1).withPosition(Position.of(2));
    long link = HistoryChain.next(BEFORE, positioned.withReceivedAt(1_000));
    assertNotEquals(link, HistoryChain.next(BEFORE, positioned.withReceivedAt(1_001)));
    assertNotEquals(link, HistoryChain.next(BEFORE, positioned));
  }

  @Test
  void theSameBlockMakesTheSameLinkWhateverItsPosition() {
    Block written = after(block(FEED, "a", 0), "a", 1);
    Block copy = new Block(written.key(), written.predecessor(), written.timestamp(),
        BlockData.copyOf(written.data().toByteArray()), Position.of(40));
    assertEquals(HistoryChain.next(BEFORE, written), HistoryChain.next(BEFORE, copy));
    assertEquals(HistoryChain.next(BEFORE, written), HistoryChain.next(BEFORE, written.withPosition(Position.of(3))));
  }

  /** The bytes its javadoc lists, digested here by hand: a link another implementation can compute. */
  @Test
  void aLinkIsTheFirst64BitsOfSha256OverTheDocumentedBytes() throws Exception {
    Block withPredecessor = after(block(FEED, "alice", 4), "bob", 5);
    Block first = block(FEED, "carol", 0, "");
    Block received = withPredecessor.withPosition(Position.of(3)).withReceivedAt(1_700_000_000_123L);
    for (Block block : new Block[] {withPredecessor, first, received}) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      bytes.write(longBytes(BEFORE));
      bytes.write(ascii(block.feedId().value()));
      bytes.write(0);
      bytes.write(ascii(block.actorId().value()));
      bytes.write(0);
      bytes.write(longBytes(block.sequence().value()));
      if (block.predecessor().isEmpty()) {
        bytes.write(0);
      } else {
        bytes.write(1);
        bytes.write(ascii(block.predecessor().get().actorId().value()));
        bytes.write(0);
        bytes.write(longBytes(block.predecessor().get().sequence().value()));
      }
      bytes.write(longBytes(block.timestamp()));
      if (block.receivedAt().isEmpty()) {
        bytes.write(0);
      } else {
        bytes.write(1);
        bytes.write(longBytes(block.receivedAt().getAsLong()));
      }
      bytes.write(block.data().toByteArray());
      long expected = ByteBuffer.wrap(MessageDigest.getInstance("SHA-256").digest(bytes.toByteArray())).getLong();
      assertEquals(expected, HistoryChain.next(BEFORE, block), block.toString());
    }
  }

  private static byte[] longBytes(long value) {
    return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}
