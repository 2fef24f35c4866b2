package dev.feedstore.server.internal.streams;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.AuthorityTransaction;
import dev.feedstore.core.store.StreamRecord;
import dev.feedstore.server.internal.append.ClosedFeeds;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The Durable Streams that are over, as appends meet them: a closed stream, a deleted one and an
 * expired one take no new block in their feed, whatever path the block comes by (the protocol's
 * POST, a replica's push, the HTTP API's append), so that nothing is ever written after a stream's
 * end. Only the streams' space holds streams; appends to other spaces are not looked at. A block
 * stored there before (pushed again) is no new block and keeps its position.
 *
 * <p>Asked as the authority's {@link ClosedFeeds}, in the append's write transaction. Stateless
 * and thread-safe.
 */
public final class EndedStreams implements ClosedFeeds {
  private final SpaceId streamsSpace;

  /** @param streamsSpace the space that holds the streams ({@code streams-space}) */
  public EndedStreams(SpaceId streamsSpace) {
    this.streamsSpace = streamsSpace;
  }

  /** Only the streams' space holds streams. */
  @Override
  public boolean mayHold(SpaceId spaceId) {
    return spaceId.equals(streamsSpace);
  }

  /** The feeds of {@code added} whose streams are over, each with why; empty for any other space than the streams'. */
  @Override
  public Map<FeedId, String> of(AuthorityTransaction tx, SpaceId spaceId, Collection<Block> added, long nowMillis) {
    if (!mayHold(spaceId) || added.isEmpty()) {
      return Map.of();
    }
    Set<FeedId> feeds = new LinkedHashSet<>();
    added.forEach(block -> feeds.add(block.feedId()));
    return ended(tx, feeds, nowMillis);
  }

  /** The feeds among {@code feeds} whose streams are over, each with why, in the order of {@code feeds}. */
  private Map<FeedId, String> ended(AuthorityTransaction tx, Set<FeedId> feeds, long nowMillis) {
    Map<FeedId, String> why = new LinkedHashMap<>();
    for (StreamRecord record : tx.streams().ofFeeds(streamsSpace, feeds)) {
      String stream = "stream '" + RateLimitedLog.clip(record.name()) + "', ";
      if (record.state() != StreamRecord.State.LIVE) {
        why.put(record.feedId(), stream + "deleted");
      } else if (record.isClosed()) {
        why.put(record.feedId(), stream + "closed at offset " + new StreamOffset(record.closedPosition().getAsLong()));
      } else if (record.expiredAt(nowMillis)) {
        why.put(record.feedId(), stream + "expired");
      }
    }
    Map<FeedId, String> ordered = new LinkedHashMap<>();
    feeds.stream().filter(why::containsKey).forEach(feed -> ordered.put(feed, why.get(feed)));
    return ordered;
  }
}
