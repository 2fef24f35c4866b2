package dev.feedstore.client.internal;

import dev.feedstore.core.Block;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.ServerToken;
import dev.feedstore.core.sync.PullPage;
import dev.feedstore.proto.WireMapping;
import dev.feedstore.proto.v1.QueryResponse;
import dev.feedstore.proto.v1.WatchEvent;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/** Turns Query responses and Watch events into {@link PullPage}s. Stateless. */
public final class WirePages {
  private WirePages() {}

  public static PullPage of(QueryResponse response) {
    List<Block> blocks = WireMapping.toDomain(response.getBlocksList());
    Optional<BlockKey> cursorBlock = response.hasCursorBlock()
        ? Optional.of(WireMapping.toDomain(response.getCursorBlock(), "cursor_block"))
        : Optional.empty();
    PullPage page = PullPage.ofQuery(blocks, response.getHasMore(), Position.of(response.getMaxPosition()),
        cursorBlock, new ServerToken(response.getServerToken()), namespaces(response.getFeedNamespacesMap()),
        response.hasCursorChain() ? OptionalLong.of(response.getCursorChain()) : OptionalLong.empty(),
        response.hasLastChain() ? OptionalLong.of(response.getLastChain()) : OptionalLong.empty(),
        Position.of(response.getFloor()));
    return response.hasStartCursor()
        ? page.startingAt(WireMapping.in("start_cursor", () -> Position.of(response.getStartCursor())))
        : page;
  }

  /**
   * A Watch event as a page. Block batches vouch for the positions up to their last block; {@code
   * caught_up} completes the history; heartbeats carry only the highest position.
   *
   * @param first whether this is the stream's first event, the one that reports the cursor block
   */
  public static PullPage of(WatchEvent event, boolean first) {
    List<Block> blocks = event.hasBlocks() ? WireMapping.toDomain(event.getBlocks().getBlocksList()) : List.of();
    Position covered = blocks.isEmpty() ? Position.NONE : blocks.get(blocks.size() - 1).position();
    Optional<BlockKey> cursorBlock = event.hasCursorBlock()
        ? Optional.of(WireMapping.toDomain(event.getCursorBlock(), "cursor_block"))
        : Optional.empty();
    Map<FeedId, Namespace> namespaces = event.hasBlocks()
        ? namespaces(event.getBlocks().getFeedNamespacesMap())
        : Map.of();
    PullPage page = new PullPage(blocks, event.hasCaughtUp(), covered, Position.of(event.getMaxPosition()), first,
        cursorBlock, new ServerToken(event.getServerToken()), namespaces,
        event.hasCursorChain() ? OptionalLong.of(event.getCursorChain()) : OptionalLong.empty(),
        event.hasLastChain() ? OptionalLong.of(event.getLastChain()) : OptionalLong.empty(),
        Position.of(event.getFloor()));
    return event.hasStartCursor()
        ? page.startingAt(WireMapping.in("start_cursor", () -> Position.of(event.getStartCursor())))
        : page;
  }

  static Map<FeedId, Namespace> namespaces(Map<String, String> wire) {
    Map<FeedId, Namespace> result = new HashMap<>();
    wire.forEach((feed, namespace) -> result.put(
        WireMapping.feedId(feed, "feed_namespaces"), WireMapping.namespace(namespace, "feed_namespaces")));
    return result;
  }
}
