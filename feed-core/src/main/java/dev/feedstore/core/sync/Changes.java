package dev.feedstore.core.sync;

import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What one committed change did to the feeds of a space, as listeners need it: per feed, the keys of
 * the blocks stored, positioned or unpositioned; and the feeds changed wholesale (blocks re-keyed,
 * positions cleared in bulk by a swap or a rollback), whose every block may differ. Immutable.
 *
 * @param blocks per feed, the keys of the blocks that changed (as they are keyed after the change; a
 *     key may be listed more than once)
 * @param rewritten the feeds whose whole content may have changed
 */
public record Changes(Map<FeedId, List<BlockKey>> blocks, Set<FeedId> rewritten) {
  /** Nothing changed. */
  public static final Changes NONE = new Changes(Map.of(), Set.of());

  public Changes {
    Objects.requireNonNull(blocks, "blocks");
    Map<FeedId, List<BlockKey>> copy = new LinkedHashMap<>();
    blocks.forEach((feed, keys) -> copy.put(feed, List.copyOf(keys)));
    blocks = java.util.Collections.unmodifiableMap(copy);
    rewritten = Set.copyOf(rewritten);
  }

  /** The given blocks changed. */
  public static Changes of(Collection<BlockKey> keys) {
    Map<FeedId, List<BlockKey>> blocks = new LinkedHashMap<>();
    for (BlockKey key : keys) {
      blocks.computeIfAbsent(key.feedId(), f -> new ArrayList<>()).add(key);
    }
    return new Changes(blocks, Set.of());
  }

  /** Every feed that changed. */
  public Set<FeedId> feeds() {
    Set<FeedId> feeds = new HashSet<>(blocks.keySet());
    feeds.addAll(rewritten);
    return feeds;
  }

  public boolean isEmpty() {
    return blocks.isEmpty() && rewritten.isEmpty();
  }
}
