package dev.feedstore.sqlite.internal;

import static dev.feedstore.core.testing.TestBlocks.positioned;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.FeedInfo;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.sqlite.SqliteSettings;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.feedstore.store.sqlite.SchemaMigrator;

/**
 * The store's cache of feed rows holds at most {@link SqliteSettings#cachedFeeds} of them however
 * many feeds the file has, and a feed whose row was forgotten reads back as it is stored: blocks,
 * namespace (also one adopted after the row was cached), counts.
 */
class FeedCacheTest {
  private static final int BOUND = 100;
  private static final int FEEDS = 1_000;
  private static final List<SpaceId> SPACES = List.of(SpaceId.of("a"), SpaceId.of("b"));
  private static final Namespace NOTES = Namespace.of("notes");

  @TempDir Path dir;

  @Test
  void manyFeedsDoNotGrowTheCachePastItsBoundAndForgottenFeedsReadBackAsStored() {
    SqliteSettings settings = SqliteSettings.DEFAULTS.withCachedFeeds(BOUND);
    try (SqliteStore store = SqliteStore.open(dir.resolve("feeds.db"), settings, SchemaMigrator.builtIn())) {
      List<FeedId> feeds = new ArrayList<>();
      long[] next = new long[SPACES.size()];
      int largest = 0;
      for (int batch = 0; batch < FEEDS / 50; batch++) {
        store.write(tx -> {
          for (int i = 0; i < 50; i++) {
            int n = feeds.size();
            FeedId feed = TestBlocks.feedId();
            feeds.add(feed);
            int space = n % SPACES.size();
            tx.feeds().create(SPACES.get(space), feed, n % 3 == 0 ? Optional.empty() : Optional.of(NOTES));
            tx.blocks().insert(SPACES.get(space), positioned(feed, "x", 0, ++next[space]));
            tx.blocks().insert(SPACES.get(space), positioned(feed, "x", 1, ++next[space]));
          }
          return null;
        });
        largest = Math.max(largest, store.cachedFeedRows());
        // Reads cache the rows they meet too: every feed written so far, in one transaction.
        store.read(tx -> {
          feeds.forEach(feed -> tx.feeds().find(space(feeds, feed), feed).orElseThrow());
          return null;
        });
        largest = Math.max(largest, store.cachedFeedRows());
      }
      assertTrue(largest <= BOUND, "the cache held " + largest + " feed rows, its bound is " + BOUND);

      // Feeds created without a namespace adopt one now, while most of their rows are forgotten.
      store.write(tx -> {
        for (int n = 0; n < FEEDS; n += 3) {
          assertTrue(tx.feeds().adoptNamespace(space(feeds, feeds.get(n)), feeds.get(n), Namespace.of("late")));
        }
        return null;
      });
      for (int n = 0; n < FEEDS; n++) {
        FeedId feed = feeds.get(n);
        SpaceId space = space(feeds, feed);
        Optional<Namespace> namespace = Optional.of(n % 3 == 0 ? Namespace.of("late") : NOTES);
        FeedInfo info = store.read(tx -> tx.feeds().find(space, feed)).orElseThrow();
        assertEquals(namespace, info.namespace(), "namespace of feed " + n);
        assertEquals(2, info.blockCount(), "blocks of feed " + n);
        List<Block> blocks = store.read(tx -> tx.blocks().feed(space, feed));
        assertEquals(List.of(0L, 1L), blocks.stream().map(b -> b.key().sequence().value()).toList());
        assertEquals(namespace, store.read(tx -> tx.feeds().namespaces(space, Set.of(feed))).get(feed));
      }
      // A read across every feed of a space takes each block's feed from the rows, cached or not.
      for (SpaceId space : SPACES) {
        List<Block> all = store.read(tx -> tx.blocks().after(space, Scope.WHOLE_SPACE, Position.NONE, 10 * FEEDS));
        assertEquals(FEEDS, all.size());
        assertEquals(feeds.stream().filter(f -> space(feeds, f).equals(space)).sorted().toList(),
            all.stream().map(Block::feedId).distinct().sorted().toList());
      }
      assertTrue(store.cachedFeedRows() <= BOUND, store.cachedFeedRows() + " feed rows cached");
    }
  }

  /** What one cached feed row costs, measured and printed: the figure the settings' javadoc gives. */
  @Test
  void aCachedFeedRowCostsAFewHundredBytes() throws Exception {
    int count = 20_000;
    Path file = dir.resolve("measured.db");
    SqliteStore.open(file, SqliteSettings.DEFAULTS, SchemaMigrator.builtIn()).close();
    List<FeedId> feeds = new ArrayList<>();
    // Rows written with plain SQL: what is measured is reading them.
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        s.execute("INSERT INTO spaces (space_private_id, space_id, feed_count) VALUES (1, 'a', " + count + ")");
      }
      try (PreparedStatement insert = c.prepareStatement(
          "INSERT INTO feeds (space_private_id, feed_id, feed_namespace) VALUES (1, ?, 'notes')")) {
        for (int i = 0; i < count; i++) {
          FeedId feed = TestBlocks.feedId();
          feeds.add(feed);
          insert.setString(1, feed.value());
          insert.executeUpdate();
        }
      }
      c.commit();
    }
    long[] used = new long[2];
    int[] bounds = {SqliteSettings.MIN_CACHED_FEEDS, count};
    for (int i = 0; i < 2; i++) {
      try (SqliteStore store = SqliteStore.open(file, SqliteSettings.DEFAULTS.withCachedFeeds(bounds[i]),
          SchemaMigrator.builtIn())) {
        store.read(tx -> tx.feeds().namespaces(SPACES.get(0), feeds));
        assertEquals(bounds[i], store.cachedFeedRows());
        used[i] = usedHeapAfterGc();
      }
    }
    long perRow = (used[1] - used[0]) / (count - bounds[0]);
    System.out.printf("feed cache: %d bytes of heap per cached feed row (%d rows)%n", perRow, count);
    assertTrue(perRow < 600, perRow + " bytes per cached feed row");
  }

  private static long usedHeapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static SpaceId space(List<FeedId> feeds, FeedId feed) {
    return SPACES.get(feeds.indexOf(feed) % SPACES.size());
  }
}
