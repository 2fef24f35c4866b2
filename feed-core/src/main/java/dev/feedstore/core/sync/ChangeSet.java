package dev.feedstore.core.sync;

import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The changes one transaction of the sync logic makes, collected for {@link Changes}. Not thread-safe. */
final class ChangeSet {
  private final Map<FeedId, List<BlockKey>> blocks = new LinkedHashMap<>();
  private final Set<FeedId> rewritten = new LinkedHashSet<>();

  /** The block stored under {@code key} was stored, positioned or unpositioned. */
  void block(BlockKey key) {
    blocks.computeIfAbsent(key.feedId(), f -> new ArrayList<>()).add(key);
  }

  /** Blocks of the feed changed in ways keys alone do not tell (re-keyed, cleared in bulk). */
  void feed(FeedId feed) {
    rewritten.add(feed);
  }

  boolean isEmpty() {
    return blocks.isEmpty() && rewritten.isEmpty();
  }

  Changes toChanges() {
    return new Changes(blocks, rewritten);
  }
}
