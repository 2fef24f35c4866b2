package dev.feedstore.client;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.SpaceId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * What a {@link FeedListener} is told about the feeds of its scope that changed.
 *
 * <p>{@link #changes()} holds, per changed feed, the blocks the update is about, in feed order and
 * as stored when the update was prepared: the blocks stored, positioned or unpositioned since the
 * previous update. For the first update of a registration, and for a feed that sync changed
 * wholesale (a swap or a rollback cleared positions, a sequence conflict re-keyed blocks), it holds
 * the feed's whole content instead, and {@link #replaced()} names the feed. A listener keeps its own
 * copy of a feed by replacing it with a replaced feed's blocks, and otherwise putting each changed
 * block in its place by key and feed order. Reading the changes costs what changed, not the size
 * of the feed.
 *
 * <p>{@link #feeds()} gives the whole content of the changed feeds instead, read from the replica
 * when first called (so it shows the changes of this update, and possibly of later ones, which
 * still arrive as their own updates); it costs a read of those feeds.
 *
 * <p>Thread-safe.
 */
public final class FeedUpdate {
  private final SpaceId spaceId;
  private final Map<FeedId, List<Block>> changes;
  private final Set<FeedId> replaced;
  private final boolean initial;
  private final Supplier<Map<FeedId, List<Block>>> reader;
  /** Guarded by this. */
  private Map<FeedId, List<Block>> content;

  /**
   * @param changes per feed, the changed blocks in feed order (the whole content for replaced feeds)
   * @param replaced the feeds whose changes are their whole content
   * @param reader reads the whole content of the changed feeds
   */
  private FeedUpdate(SpaceId spaceId, Map<FeedId, List<Block>> changes, Set<FeedId> replaced, boolean initial,
      Supplier<Map<FeedId, List<Block>>> reader) {
    this.spaceId = Objects.requireNonNull(spaceId, "spaceId");
    Map<FeedId, List<Block>> copy = new LinkedHashMap<>();
    changes.forEach((feed, blocks) -> copy.put(feed, List.copyOf(blocks)));
    this.changes = java.util.Collections.unmodifiableMap(copy);
    this.replaced = Set.copyOf(replaced);
    this.initial = initial;
    this.reader = Objects.requireNonNull(reader, "reader");
  }

  /**
   * An update after changes. For this library's listener hub; applications receive updates and
   * never make them.
   */
  public static FeedUpdate of(SpaceId spaceId, Map<FeedId, List<Block>> changes, Set<FeedId> replaced,
      Supplier<Map<FeedId, List<Block>>> reader) {
    return new FeedUpdate(spaceId, changes, replaced, false, reader);
  }

  /** The first update of a registration: the whole content of every feed in scope. For the listener hub. */
  public static FeedUpdate ofInitial(SpaceId spaceId, Map<FeedId, List<Block>> content) {
    FeedUpdate update = new FeedUpdate(spaceId, content, content.keySet(), true, Map::of);
    synchronized (update) {
      update.content = update.changes;
    }
    return update;
  }

  /** The space of the updated feed. */
  public SpaceId spaceId() {
    return spaceId;
  }

  /** True for the first update of a registration. */
  public boolean initial() {
    return initial;
  }

  /** The feeds this update is about. */
  public Set<FeedId> feedIds() {
    return changes.keySet();
  }

  /**
   * Per changed feed, the blocks that changed, in feed order; for {@link #replaced()} feeds, the
   * whole content.
   */
  public Map<FeedId, List<Block>> changes() {
    return changes;
  }

  /** The feeds whose {@link #changes()} are their whole content (every feed of the first update). */
  public Set<FeedId> replaced() {
    return replaced;
  }

  /**
   * The whole content of each changed feed, in feed order, read from the replica when first called
   * (afterwards the same map).
   *
   * @throws dev.feedstore.core.store.StoreException if the replica cannot be read (closed, say)
   */
  public synchronized Map<FeedId, List<Block>> feeds() {
    if (content == null) {
      Map<FeedId, List<Block>> read = new LinkedHashMap<>();
      reader.get().forEach((feed, blocks) -> read.put(feed, List.copyOf(blocks)));
      content = java.util.Collections.unmodifiableMap(read);
    }
    return content;
  }

  @Override
  public String toString() {
    return "FeedUpdate[" + spaceId + (initial ? ", initial" : "") + ", changes " + changes + ", replaced " + replaced
        + "]";
  }
}
