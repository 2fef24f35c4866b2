package dev.feedstore.client.internal;

import dev.feedstore.core.Block;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.sync.Changes;
import dev.feedstore.core.sync.SyncListener;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Tells a replica's listeners what its commits changed: feed listeners ({@link ListenerHub}) and
 * live queries ({@link QueryHub}). Every commit that changes blocks, a local one or a sync step's,
 * runs with its telling in {@link CommitOrder}, so both hear of commits in the order they were made.
 * Thread-safe.
 */
public final class ReplicaEvents implements SyncListener {
  private final CommitOrder order;
  private final ListenerHub feeds;
  private final QueryHub queries;

  public ReplicaEvents(CommitOrder order, ListenerHub feeds, QueryHub queries) {
    this.order = order;
    this.feeds = feeds;
    this.queries = queries;
  }

  @Override
  public <T> T committing(Supplier<T> commit) {
    return order.commit(commit);
  }

  /** Blocks one local commit appended to a feed with {@code namespace}, in order. Call inside {@link #committing}. */
  public void appended(SpaceId space, List<Block> blocks, Optional<Namespace> namespace) {
    feeds.feedsChanged(space, Changes.of(blocks.stream().map(Block::key).toList()));
    queries.appended(space, blocks, namespace);
  }

  @Override
  public void feedsChanged(SpaceId spaceId, Changes changes) {
    feeds.feedsChanged(spaceId, changes);
    queries.changed(spaceId, changes);
  }

  @Override
  public void historyUnavailable(SpaceId spaceId, Position floor) {
    queries.reread(spaceId);
  }

  @Override
  public void refusalsChanged(SpaceId spaceId) {
    queries.reread(spaceId);
  }

  /**
   * The replication policies of a space changed (and perhaps a feed's namespace with them), which
   * may change what the space's live queries miss or cover. Call inside {@link #committing}.
   */
  public void policiesChanged(SpaceId spaceId) {
    queries.reread(spaceId);
  }
}
