package dev.feedstore.client.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.Replica;
import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.FeedStore;
import dev.feedstore.testing.AuthorityHistory;
import java.util.Collection;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Checks that replicas and the authority agree, and that nothing was lost or duplicated. */
public final class Convergence {
  private Convergence() {}

  /**
   * Every replica holds each of {@code feeds} exactly as the authority does: same blocks, same
   * positions, same order, nothing unpositioned.
   */
  public static void assertConverged(FeedStore authority, SpaceId space, Collection<FeedId> feeds, Replica... replicas) {
    for (FeedId feed : feeds) {
      List<Block> expected = authority.read(tx -> tx.blocks().feed(space, feed));
      for (Replica replica : replicas) {
        List<Block> actual = replica.read(space, feed);
        assertEquals(expected, actual, "feed " + feed + " on replica " + replica.actorId());
        assertTrue(actual.stream().allMatch(Block::isPositioned), "all positioned on " + replica.actorId());
      }
    }
  }

  /**
   * The authority's positions in the space are unique, dense from 1 and strictly increasing, and its
   * blocks' data are exactly {@code written} (each once: nothing lost, nothing duplicated).
   */
  public static void assertExactlyOnce(FeedStore authority, SpaceId space, Collection<String> written) {
    long unpositioned = authority.read(tx -> tx.blocks().countUnpositioned(space, Scope.WHOLE_SPACE));
    assertEquals(0, unpositioned, "the authority holds no unpositioned block");
    AuthorityHistory.assertExactlyOnce(
        authority.read(tx -> tx.blocks().after(space, Scope.WHOLE_SPACE, Position.NONE, Integer.MAX_VALUE)), written);
  }

  /** The data of a feed on a replica, in feed order. */
  public static List<String> data(Replica replica, SpaceId space, FeedId feed) {
    return replica.read(space, feed).stream().map(b -> b.data().toStringUtf8()).collect(Collectors.toList());
  }

  /** Positions of a feed on a replica, in feed order. */
  public static TreeMap<Long, String> positions(Replica replica, SpaceId space, FeedId feed) {
    TreeMap<Long, String> result = new TreeMap<>();
    replica.read(space, feed).forEach(b -> result.put(b.position().value(), b.data().toStringUtf8()));
    return result;
  }
}
