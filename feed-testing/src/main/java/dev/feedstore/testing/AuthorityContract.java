package dev.feedstore.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.ActorId;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.HistoryChain;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Predecessor;
import dev.feedstore.core.Scope;
import dev.feedstore.core.Sequence;
import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.sync.AppendReply;
import dev.feedstore.core.sync.Authority;
import dev.feedstore.core.sync.PullPage;
import dev.feedstore.core.sync.PullRequest;
import dev.feedstore.core.sync.SequenceConflictException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * What the sync logic relies on an {@link Authority} to answer (the wire contract's Append and
 * Query), and what a restore and a wipe of its store do to those answers, as tests. The real server
 * (over gRPC) and {@link MemoryAuthority} both pass them, which is what lets the sync logic's tests
 * run against the second. A subclass gives the authority and the moves of its store.
 */
public abstract class AuthorityContract {
  private static final SpaceId SPACE = SpaceId.of("contract");
  private static final Random RANDOM = new Random(7);

  /** The authority under test, with an empty store. */
  protected abstract Authority authority();

  /** A copy of the authority's store as it is now, for {@link #restore}. */
  protected abstract Object snapshot();

  /** Puts back the store {@code snapshot} copied (a restore from a backup). */
  protected abstract void restore(Object snapshot);

  /** Replaces the store with an empty one (a swap). */
  protected abstract void wipe();

  @Test
  void newBlocksTakeTheNextPositionsInOrderAndARepeatedKeyKeepsItsPosition() {
    FeedId feed = feedId();
    Block first = block(feed, "a", 0, "one");
    Block second = after(first, "two");

    AppendReply reply = authority().append(SPACE, Optional.empty(), List.of(first, second));
    AppendReply again = authority().append(SPACE, Optional.empty(), List.of(second, after(second, "three")));

    assertEquals(positions(1, 2), reply.positions());
    assertEquals(positions(2, 3), again.positions(), "the held key keeps 2, the new one takes 3");
    assertEquals(reply.serverToken(), again.serverToken());
  }

  @Test
  void aKeyHeldWithOtherContentFailsTheWholeAppendNamingItAndWritesNothing() {
    FeedId feed = feedId();
    Block first = block(feed, "a", 0, "one");
    authority().append(SPACE, Optional.empty(), List.of(first));

    Block rewritten = block(feed, "a", 0, "other content");
    SequenceConflictException conflict = assertThrows(SequenceConflictException.class,
        () -> authority().append(SPACE, Optional.empty(), List.of(block(feed, "b", 0, "new"), rewritten)));

    assertEquals(List.of(first.key()), conflict.keys());
    assertEquals(1, pull(Position.NONE, 100).maxPosition().value(), "nothing of the refused append was written");
  }

  @Test
  void aPullReturnsAPageAfterTheCursorWithTheCursorBlockTheHighestPositionAndTheChains() {
    FeedId feed = feedId();
    List<Block> blocks = appendChain(feed, 5);

    PullPage page = pull(Position.of(1), 2);

    assertEquals(List.of(blocks.get(1).key(), blocks.get(2).key()), page.blocks().stream().map(Block::key).toList());
    assertEquals(positions(2, 3), page.blocks().stream().map(Block::position).toList());
    assertFalse(page.complete(), "more follows");
    assertEquals(Position.of(3), page.coveredThrough());
    assertEquals(Position.of(5), page.maxPosition());
    assertEquals(Optional.of(blocks.get(0).key()), page.cursorBlock());
    assertEquals(OptionalLong.of(chainAfter(1)), page.cursorChain());
    assertEquals(OptionalLong.of(chainAfter(3)), page.lastChain());

    PullPage last = pull(Position.of(3), 100);
    assertTrue(last.complete());
    assertEquals(Position.of(5), last.coveredThrough(), "the final page vouches up to the highest position");
    PullPage fromTheStart = pull(Position.NONE, 100);
    assertEquals(Optional.empty(), fromTheStart.cursorBlock(), "nothing is at position 0");
  }

  @Test
  void aPullOfSomeFeedsSkipsTheOthersAndNamesTheNamespacesOfThoseItReturns() {
    FeedId notes = feedId();
    FeedId other = feedId();
    authority().append(SPACE, Optional.of(Namespace.of("notes")), List.of(block(notes, "a", 0, "n0")));
    authority().append(SPACE, Optional.empty(), List.of(block(other, "a", 0, "o0")));
    authority().append(SPACE, Optional.of(Namespace.of("notes")), List.of(block(notes, "a", 1, "n1")));

    PullPage page = authority().pull(new PullRequest(SPACE, Scope.namespace(Namespace.of("notes")), Position.NONE,
        100, Optional.empty()));

    assertEquals(positions(1, 3), page.blocks().stream().map(Block::position).toList());
    assertEquals(Map.of(notes, Namespace.of("notes")), page.namespaces());
    assertEquals(Position.of(3), page.maxPosition(), "the highest position counts every feed");
    PullPage byFeed = authority().pull(new PullRequest(SPACE, Scope.feeds(Set.of(other)), Position.of(1), 100,
        Optional.empty()));
    assertEquals(positions(2), byFeed.blocks().stream().map(Block::position).toList());
    assertEquals(Optional.of(page.blocks().get(0).key()), byFeed.cursorBlock(), "the cursor block is of any feed");
  }

  @Test
  void aPullExpectingAnotherStoresTokenIsAnsweredFromTheStartWithThisOne() {
    FeedId feed = feedId();
    appendChain(feed, 3);
    ServerToken token = pull(Position.NONE, 100).serverToken();

    PullPage page = authority().pull(new PullRequest(SPACE, Scope.WHOLE_SPACE, Position.of(2), 100,
        Optional.of(ServerToken.of("another-store"))));

    assertEquals(positions(1, 2, 3), page.blocks().stream().map(Block::position).toList());
    assertEquals(token, page.serverToken());
  }

  @Test
  void aRestoreKeepsTheTokenAndHandsOutTheLostPositionsAgain() {
    FeedId feed = feedId();
    appendChain(feed, 2);
    ServerToken token = pull(Position.NONE, 100).serverToken();
    Object before = snapshot();
    authority().append(SPACE, Optional.empty(), List.of(block(feed, "lost", 0, "lost")));

    restore(before);
    AppendReply reply = authority().append(SPACE, Optional.empty(), List.of(block(feed, "b", 0, "after")));

    assertEquals(token, reply.serverToken());
    assertEquals(positions(3), reply.positions(), "position 3 again, for another block");
    assertEquals(OptionalLong.of(chainAfter(2)), pull(Position.of(2), 100).cursorChain());
  }

  @Test
  void aWipeGivesANewTokenAndNoData() {
    FeedId feed = feedId();
    appendChain(feed, 2);
    ServerToken token = pull(Position.NONE, 100).serverToken();

    wipe();
    PullPage page = pull(Position.NONE, 100);

    assertNotEquals(token, page.serverToken());
    assertEquals(Position.NONE, page.maxPosition());
    assertTrue(page.blocks().isEmpty());
  }

  private PullPage pull(Position cursor, int limit) {
    return authority().pull(new PullRequest(SPACE, Scope.WHOLE_SPACE, cursor, limit, Optional.empty()));
  }

  /** Appends {@code count} linked blocks of actor "a" to {@code feed}, one append each; returns them unpositioned. */
  private List<Block> appendChain(FeedId feed, int count) {
    Block previous = block(feed, "a", 0, "block-0");
    List<Block> blocks = new java.util.ArrayList<>(List.of(previous));
    for (int i = 1; i < count; i++) {
      previous = after(previous, "block-" + i);
      blocks.add(previous);
    }
    blocks.forEach(block -> authority().append(SPACE, Optional.empty(), List.of(block)));
    return blocks;
  }

  /**
   * The history chain after the authority's first {@code count} blocks, computed over the blocks as
   * it holds them (the chain digests receive times, which only the authority stamps).
   */
  private long chainAfter(int count) {
    long chain = HistoryChain.START;
    for (Block block : pull(Position.NONE, count).blocks()) {
      chain = HistoryChain.next(chain, block);
    }
    return chain;
  }

  private static List<Position> positions(long... values) {
    return LongStream.of(values).mapToObj(Position::of).toList();
  }

  private static synchronized FeedId feedId() {
    return FeedId.generate(Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC), RANDOM);
  }

  private static Block block(FeedId feed, String actor, long sequence, String data) {
    return Block.unpositioned(new BlockKey(feed, ActorId.of(actor), Sequence.of(sequence)), Optional.empty(),
        1_000 + sequence, BlockData.utf8(data));
  }

  private static Block after(Block previous, String data) {
    BlockKey key = new BlockKey(previous.feedId(), previous.actorId(), previous.sequence().next());
    return Block.unpositioned(key, Optional.of(Predecessor.of(previous.key())), previous.timestamp() + 1,
        BlockData.utf8(data));
  }
}
