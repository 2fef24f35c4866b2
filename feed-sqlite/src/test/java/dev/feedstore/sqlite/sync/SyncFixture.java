package dev.feedstore.sqlite.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.SpaceId;
import dev.feedstore.testing.AuthorityHistory;
import dev.feedstore.testing.MemoryAuthority;
import dev.feedstore.testing.SyncDriver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What every test of the sync logic starts from: an in-memory authority, replicas on SQLite files in
 * a directory of the test's own, a driver of their sync one step at a time, and a record of what the
 * test wrote through them, with the checks that sync settled with nothing lost and nothing
 * duplicated. A test registers it as an extension ({@code @RegisterExtension}), which makes the
 * directory before the test and closes the replicas and deletes the directory after it. Not
 * thread-safe.
 */
final class SyncFixture implements BeforeEachCallback, AfterEachCallback {
  static final SpaceId SPACE = SpaceId.of("team");

  final MemoryAuthority authority = new MemoryAuthority();
  final SyncDriver<StoreReplica> driver = new SyncDriver<>(authority, StoreReplica::sync);
  private final List<StoreReplica> replicas = new ArrayList<>();
  private final List<String> written = new ArrayList<>();
  private Path dir;

  @Override
  public void beforeEach(ExtensionContext context) throws IOException {
    dir = Files.createTempDirectory("sync-");
  }

  @Override
  public void afterEach(ExtensionContext context) throws IOException {
    replicas.forEach(StoreReplica::close);
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(file);
      }
    }
  }

  /** A replica of {@code actor} whose pulls take up to 500 blocks a page. */
  StoreReplica replica(String actor) {
    return replica(actor, 500);
  }

  /** A replica of {@code actor} whose pulls take up to {@code pullLimit} blocks a page. */
  StoreReplica replica(String actor, int pullLimit) {
    StoreReplica replica = new StoreReplica(dir, actor, SPACE, pullLimit);
    replicas.add(replica);
    return replica;
  }

  /** A path in the test's directory, for copies of files. */
  Path file(String name) {
    return dir.resolve(name);
  }

  /** {@code replica} appends {@code count} blocks whose data are "label-i"; they are remembered as written. */
  void append(StoreReplica replica, FeedId feed, String label, int count) {
    List<String> data = IntStream.range(0, count).mapToObj(i -> label + "-" + i).toList();
    replica.append(feed, data);
    written.addAll(data);
  }

  /**
   * Settles sync of {@code all} and checks that each holds {@code feed} exactly as the authority
   * does (same blocks, same positions, nothing unpositioned), and that the authority holds every
   * block written once.
   */
  void settleAndCheck(FeedId feed, StoreReplica... all) {
    driver.untilQuiet(20, all);
    List<Block> expected = authority.blocks(SPACE).stream().filter(b -> b.feedId().equals(feed)).toList();
    for (StoreReplica replica : all) {
      List<Block> held = replica.read(feed);
      assertEquals(expected, held, "feed " + feed + " on " + replica);
      assertTrue(held.stream().allMatch(Block::isPositioned), "all positioned on " + replica);
    }
    AuthorityHistory.assertExactlyOnce(authority.blocks(SPACE), written);
  }
}
