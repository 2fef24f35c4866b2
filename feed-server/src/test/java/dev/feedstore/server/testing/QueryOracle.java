package dev.feedstore.server.testing;

import dev.feedstore.core.Namespace;
import dev.feedstore.core.query.DocumentId;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.ParsedBlock;
import dev.feedstore.core.query.Row;
import dev.feedstore.proto.WireMapping;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The answer a live query must hold at a position, computed from scratch: every block of the space
 * read with Query, the last version inside the scope of each document at or below the position,
 * and {@link LiveQuery#evaluate} (feed-core's reference evaluation) over them. Stateless.
 */
public final class QueryOracle {
  private QueryOracle() {}

  public static List<Row> expected(FeedSyncGrpc.FeedSyncBlockingStub stub, LiveQuery query, long position) {
    Map<DocumentId, ParsedBlock> last = new LinkedHashMap<>();
    long cursor = 0;
    while (true) {
      QueryResponse page = stub.query(QueryRequest.newBuilder().setRequestId("oracle")
          .setSpaceId(query.space().value()).setCursor(cursor).setLimit(1000).build());
      for (Block wire : page.getBlocksList()) {
        if (wire.getPosition() > position) {
          return query.evaluate(last.values());
        }
        String ns = page.getFeedNamespacesMap().get(wire.getFeedId());
        ParsedBlock block = ParsedBlock.of(WireMapping.toDomain(wire, "block"),
            Optional.ofNullable(ns).map(Namespace::of), 0);
        query.documentOf(block).ifPresent(id -> {
          last.remove(id);
          last.put(id, block);
        });
        cursor = wire.getPosition();
      }
      if (!page.getHasMore()) {
        return query.evaluate(last.values());
      }
    }
  }
}
