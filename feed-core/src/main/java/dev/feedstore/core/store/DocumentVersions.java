package dev.feedstore.core.store;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.json.JsonPointer;
import dev.feedstore.core.query.DocumentId;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A replica's blocks as the versions of live-query documents ({@link dev.feedstore.core.query}), in
 * the order of versions every replica converges on: positioned blocks by position, then unpositioned
 * blocks in the order this store stored them (a replica's own appends in the order it wrote them).
 * Each comes with its feed's namespace, which scopes need.
 *
 * <p>The store prefilters, the caller decides: a lookup by document key may return blocks that are
 * not versions of the document (the caller reads each with the query's evaluator, {@link
 * dev.feedstore.core.query.LiveQuery#documentOf}), and never leaves one out. Checksums are verified
 * as {@link BlockLog} says. Valid while its transaction's work runs; not thread-safe.
 */
public interface DocumentVersions {

  /** A block and the namespace of its feed. */
  record Version(Block block, Optional<Namespace> namespace) {
    /**
     * The version {@code block}, in a feed of {@code namespace} (empty: none).
     *
     * @throws NullPointerException if either is null
     */
    public Version {
      Objects.requireNonNull(block, "block");
      Objects.requireNonNull(namespace, "namespace");
    }
  }

  /**
   * Fixes what this (read) transaction sees at this moment, if no read of it did already: commits
   * that end after this call are not seen by it. A caller that must know which commits it reads
   * calls this first, while no commit can end.
   */
  void begin();

  /**
   * Calls {@code visitor} with every block of the space's feeds in {@code scope}, oldest first in
   * the order of versions. Reads each block once, one at a time.
   */
  void forEach(SpaceId spaceId, Scope scope, Consumer<Version> visitor);

  /**
   * The blocks of the feed, newest first in the order of versions: the {@code limit} after the first
   * {@code skip}.
   */
  List<Version> newestOfFeed(SpaceId spaceId, FeedId feedId, int skip, int limit);

  /**
   * Whether {@link #newestByKey} can look up documents keyed by {@code pointer}: the store can
   * express the pointer in its own JSON functions. When it cannot, the caller reads the scope with
   * {@link #forEach} instead.
   */
  boolean looksUp(JsonPointer pointer);

  /**
   * Makes lookups by {@code pointer} read only their candidates (an index over the value at the
   * pointer), if the store {@linkplain #looksUp can look them up}; nothing if it has done so
   * already. Needs a write transaction. An index costs every later insert the reading of the
   * block's content; it is kept in the file.
   *
   * @return whether lookups by the pointer read only their candidates
   */
  boolean indexKey(JsonPointer pointer);

  /**
   * Blocks of the space whose content may hold {@code id} at {@code pointer} (every one that does,
   * and perhaps others), newest first in the order of versions: the {@code limit} after the first
   * {@code skip}.
   *
   * @throws IllegalArgumentException if the store cannot {@linkplain #looksUp look up} the pointer
   */
  List<Version> newestByKey(SpaceId spaceId, JsonPointer pointer, DocumentId id, int skip, int limit);
}
