package dev.feedstore.client;

import static dev.feedstore.client.testing.Convergence.assertConverged;
import static dev.feedstore.client.testing.Convergence.assertExactlyOnce;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.Convergence;
import dev.feedstore.client.testing.Replicas;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.HistoryChain;
import dev.feedstore.core.Position;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.sync.SyncStep;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.testing.Await;
import dev.feedstore.testing.SyncDriver;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The authority is restored from an older copy after it acknowledged more blocks; each test makes
 * one of the five rollback signals of DESIGN 5.2 the one that notices, then checks that every
 * replica converges with nothing lost and nothing duplicated. The {@code aKeyReused} tests restore
 * the author of a block from a backup made before it too, so that it writes other content under the
 * same key, which takes the same position: only the content tells the two histories apart, and the
 * history chain digests it; the replica that pulled the first content keeps it under a new key and
 * pushes it.
 */
class RollbackSignalsTest {
  private static final SpaceId SPACE = SpaceId.of("team");
  private static final SyncSession.Options FAST_RETRY =
      SyncSession.Options.DEFAULTS.withBackoff(Duration.ofMillis(20), Duration.ofMillis(200));

  @TempDir Path dir;
  private RestartableServer authority;
  private Replicas replicas;
  private SyncDriver<Replica> driver;
  private FeedId feed;

  @BeforeEach
  void setUp() {
    authority = RestartableServer.inProcess(dir);
    replicas = new Replicas(dir);
    driver = Replicas.driver(authority.channel(), SPACE);
  }

  @AfterEach
  void tearDown() {
    replicas.close();
    authority.close();
  }

  private Replica replicaFollowingTheFeed(String actor) {
    Replica replica = replicas.open(actor);
    follow(replica);
    return replica;
  }

  private void follow(Replica replica) {
    if (feed == null) {
      feed = replica.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
    } else {
      replica.replicate(SPACE, feed, Replication.fullHistory());
    }
  }

  @Test
  void signal1_pulledBlockAtAPositionWhereTheReplicaHoldsAnother() {
    Replica alice = replicaFollowingTheFeed("alice");
    Replica bob = replicaFollowingTheFeed("bob");
    replicas.append(alice, SPACE, feed, "a", 5);
    driver.untilQuiet(10, alice, bob);
    Path before = authority.snapshot();

    replicas.append(alice, SPACE, feed, "x", 1);
    assertEquals(SyncStep.Kind.PUSHED, driver.push(alice).kind());
    authority.restoreFrom(before);
    replicas.append(bob, SPACE, feed, "y", 1);
    driver.untilQuiet(10, bob);

    SyncStep step = driver.pull(alice);
    assertEquals(SyncStep.Kind.ROLLED_BACK, step.kind(), step.detail());
    assertTrue(step.detail().contains("rollback signal 1"), step.detail());
    settleAndCheck(alice, bob);
  }

  @Test
  void signal2_pulledBlockTheReplicaHoldsArrivesAtAnotherPosition() {
    Replica alice = replicas.open("alice", 1, 500);
    follow(alice);
    Replica bob = replicaFollowingTheFeed("bob");
    Replica carol = replicaFollowingTheFeed("carol");
    replicas.append(alice, SPACE, feed, "a", 3);
    driver.untilQuiet(10, alice, bob, carol);
    Path before = authority.snapshot();

    replicas.append(bob, SPACE, feed, "b", 1);
    driver.push(bob);
    replicas.append(alice, SPACE, feed, "x", 1);
    driver.push(alice);
    driver.untilQuiet(10, carol);
    authority.restoreFrom(before);
    // Carol notices first (her cursor is above the restored authority's) and pushes both blocks
    // again; alice's block comes first this time.
    SyncStep carolStep = driver.pull(carol);
    assertTrue(carolStep.detail().contains("rollback signal 4"), carolStep.detail());
    driver.untilQuiet(10, carol);

    SyncStep step = driver.pull(alice);
    assertEquals(SyncStep.Kind.ROLLED_BACK, step.kind(), step.detail());
    assertTrue(step.detail().contains("rollback signal 2"), step.detail());
    settleAndCheck(alice, bob, carol);
  }

  @Test
  void signal3_pushedBlockPositionedAtOrBelowTheCursor() {
    Replica alice = replicaFollowingTheFeed("alice");
    replicas.append(alice, SPACE, feed, "a", 5);
    driver.untilQuiet(10, alice);
    Path before = authority.snapshot();
    replicas.append(alice, SPACE, feed, "b", 5);
    driver.untilQuiet(10, alice);
    assertEquals(10, alice.sync(SPACE).state().cursor().value());

    authority.restoreFrom(before);
    replicas.append(alice, SPACE, feed, "z", 1);
    SyncStep step = driver.push(alice);
    assertEquals(SyncStep.Kind.ROLLED_BACK, step.kind(), step.detail());
    assertTrue(step.detail().contains("rollback signal 3"), step.detail());
    settleAndCheck(alice);
  }

  @Test
  void signal4_cursorAboveTheAuthoritysHighestPosition() {
    Replica alice = replicaFollowingTheFeed("alice");
    replicas.append(alice, SPACE, feed, "a", 5);
    driver.untilQuiet(10, alice);
    Path before = authority.snapshot();
    replicas.append(alice, SPACE, feed, "b", 5);
    driver.untilQuiet(10, alice);

    authority.restoreFrom(before);
    SyncStep step = driver.pull(alice);
    assertEquals(SyncStep.Kind.ROLLED_BACK, step.kind(), step.detail());
    assertTrue(step.detail().contains("rollback signal 4"), step.detail());
    settleAndCheck(alice);
  }

  @Test
  void signal5_cursorBlockDiffersAfterOthersWroteTheAuthorityBackPastTheCursor() {
    Replica alice = replicaFollowingTheFeed("alice");
    Replica bob = replicaFollowingTheFeed("bob");
    replicas.append(alice, SPACE, feed, "a", 5);
    driver.untilQuiet(10, alice, bob);
    Path before = authority.snapshot();
    replicas.append(alice, SPACE, feed, "lost", 5);
    driver.untilQuiet(10, alice);
    assertEquals(10, alice.sync(SPACE).state().cursor().value());

    authority.restoreFrom(before);
    replicas.append(bob, SPACE, feed, "b", 5);
    driver.untilQuiet(10, bob);
    assertEquals(10, authority.store().read(tx -> tx.blocks().maxPosition(SPACE)).value());

    SyncStep step = driver.pull(alice);
    assertEquals(SyncStep.Kind.ROLLED_BACK, step.kind(), step.detail());
    assertTrue(step.detail().contains("rollback signal 5"), step.detail());
    settleAndCheck(alice, bob);
  }

  @Test
  void signal5_historyBelowTheCursorChangedWhileTheSameBlockIsAtTheCursor() {
    // The authority is swapped, then restored from a copy made before anything was written (it has
    // its first token again), and alice pushes her blocks again in another order: bob's cursor block
    // is the same block as before, but the blocks below it traded positions.
    Replica alice = replicaFollowingTheFeed("alice");
    Replica bob = replicaFollowingTheFeed("bob");
    FeedId second = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
    bob.replicate(SPACE, second, Replication.fullHistory());
    driver.pull(bob);
    Path empty = authority.snapshot();
    replicas.append(alice, SPACE, second, "x", 1);
    driver.push(alice);
    replicas.append(alice, SPACE, feed, "a", 1);
    replicas.append(alice, SPACE, second, "y", 1);
    driver.push(alice);
    driver.untilQuiet(10, bob);
    assertEquals(3, bob.sync(SPACE).state().cursor().value());

    authority.wipe();
    driver.pull(alice);
    authority.restoreFrom(empty);
    driver.untilQuiet(10, alice);
    assertEquals(authority.store().read(tx -> tx.blocks().atPosition(SPACE, dev.feedstore.core.Position.of(3)))
        .orElseThrow().key(), bob.read(SPACE, second).get(1).key(), "the same block at bob's cursor");

    assertReplaysAsTheHistoryChainDiffers(bob);
    driver.untilQuiet(20, alice, bob);
    assertConverged(authority.store(), SPACE, List.of(feed, second), alice, bob);
    assertExactlyOnce(authority.store(), SPACE, replicas.written());
  }

  @Test
  void signal5_aKeyReusedWithOtherContentAtTheCursor() {
    Replica alice = replicaFollowingTheFeed("alice");
    Replica bob = replicaFollowingTheFeed("bob");
    replicas.append(alice, SPACE, feed, "a", 3);
    driver.untilQuiet(10, alice, bob);
    BeforeFirst copies = bobWritesFirst(bob, alice);
    Block first = alice.read(SPACE, feed).get(3);

    bob = rollBackWithBob(copies);
    assertSameKeyOtherContentAt(first);

    assertReplaysAsTheHistoryChainDiffers(alice);
    settleWithoutAnotherRollback(alice, bob);
  }

  @Test
  void signal5_aKeyReusedWithOtherContentBelowTheCursor() {
    Replica alice = replicaFollowingTheFeed("alice");
    Replica bob = replicaFollowingTheFeed("bob");
    Replica carol = replicaFollowingTheFeed("carol");
    replicas.append(alice, SPACE, feed, "a", 2);
    driver.untilQuiet(10, alice, bob, carol);
    BeforeFirst copies = bobWritesFirst(bob);
    replicas.append(alice, SPACE, feed, "c", 1);
    driver.untilQuiet(10, alice, carol);
    Block first = carol.read(SPACE, feed).get(2);
    assertEquals(4, carol.sync(SPACE).state().cursor().value());

    bob = rollBackWithBob(copies);
    assertSameKeyOtherContentAt(first);
    // Alice notices first (her cursor is above the authority's highest position) and pushes again
    // what the rollback lost, her block "c" to the position carol's cursor is at.
    driver.untilQuiet(10, alice);
    BlockKey atCarolsCursor = carol.read(SPACE, feed).get(3).key();
    assertEquals(Optional.of(atCarolsCursor),
        authority.store().read(tx -> tx.blocks().atPosition(SPACE, Position.of(4))).map(Block::key),
        "the same block at carol's cursor");

    assertReplaysAsTheHistoryChainDiffers(carol);
    settleWithoutAnotherRollback(alice, bob, carol);
  }

  /** The same through sync sessions: alice's session connects after the rollback and catches up. */
  @Test
  void signal5_aKeyReusedWithOtherContentThroughSyncSessions() throws InterruptedException {
    Replica alice = replicaFollowingTheFeed("alice");
    Replica bob = replicaFollowingTheFeed("bob");
    replicas.append(alice, SPACE, feed, "a", 3);
    BeforeFirst copies;
    try (SyncSession session = alice.connect(authority.channel(), FAST_RETRY)) {
      assertTrue(session.awaitSynced(Duration.ofSeconds(30)), "synced: " + session.status());
      copies = bobWritesFirst(bob);
      Await.until("alice holds bob's first block", () -> Convergence.data(alice, SPACE, feed).contains("first-0")
          && alice.read(SPACE, feed).stream().allMatch(Block::isPositioned));
    }

    bob = rollBackWithBob(copies);
    try (SyncSession bobSession = bob.connect(authority.channel(), FAST_RETRY)) {
      assertTrue(bobSession.awaitSynced(Duration.ofSeconds(30)), "bob synced: " + bobSession.status());
      try (SyncSession aliceSession = alice.connect(authority.channel(), FAST_RETRY)) {
        Replica bobNow = bob;
        Await.until("both contents on the authority and both replicas converged", () -> {
          List<Block> held = authority.store().read(tx -> tx.blocks().feed(SPACE, feed));
          return held.size() == 5 && aliceSession.status().isSynced() && bobSession.status().isSynced()
              && alice.read(SPACE, feed).equals(held) && bobNow.read(SPACE, feed).equals(held);
        });
      }
    }
    assertConverged(authority.store(), SPACE, List.of(feed), alice, bob);
    assertExactlyOnce(authority.store(), SPACE, replicas.written());
  }

  /**
   * Links stored by releases whose chain digested keys only stay as they are: a replica that recorded
   * one is not sent into a replay, the authority chains new positions on from it, and a key reused
   * above it is noticed.
   */
  @Test
  void signal5_chainsStoredOverKeysOnlyStayValidAndLaterPositionsCoverContent() {
    Replica alice = replicaFollowingTheFeed("alice");
    Replica bob = replicaFollowingTheFeed("bob");
    replicas.append(alice, SPACE, feed, "a", 3);
    assertEquals(SyncStep.Kind.PUSHED, driver.push(alice).kind());
    long keysOnly = storeKeysOnlyChains(3);
    authority.restart();
    driver.untilQuiet(10, alice, bob);
    assertEquals(OptionalLong.of(keysOnly), bob.sync(SPACE).state().cursorChain(), "bob recorded the stored link");

    BeforeFirst copies = bobWritesFirst(bob, alice);
    Block first = alice.read(SPACE, feed).get(3);
    assertEquals(OptionalLong.of(HistoryChain.next(keysOnly, first)),
        authority.store().read(tx -> tx.blocks().chainAt(SPACE, first.position())), "chained on the stored link");
    assertTrue(driver.steps().stream().noneMatch(s -> s.kind() == SyncStep.Kind.ROLLED_BACK), driver.steps().toString());

    bob = rollBackWithBob(copies);
    assertSameKeyOtherContentAt(first);
    assertReplaysAsTheHistoryChainDiffers(alice);
    settleWithoutAnotherRollback(alice, bob);
  }

  /**
   * Carol pulled bob's block and alice's two, a page each; the authority rolls back to before all
   * three, bob (restored from a backup) writes other content under his key, and alice pushes hers
   * again: the keys line up at every position, the content at 1 does not. Before carol pulls again
   * she back-fills a feed from position 3, so her cursor goes back below it: to position 2, where she
   * recorded the authority's chain when she pulled, and that chain tells.
   */
  @Test
  void signal5_aBackFillRewindChecksTheHistoryBelowItWithTheChainRecordedThere() {
    Replica carol = replicas.open("carol", 1, 500);
    FeedId backFilled = aKeyReusedBelowCarolsCursor(carol);

    carol.replicate(SPACE, backFilled, Replication.from(Position.of(3)));
    assertEquals(2, carol.sync(SPACE).state().cursor().value(), "the cursor went back just before the start");
    assertReplaysAsTheHistoryChainDiffers(carol);
    settleWithoutAnotherRollback(carol);
  }

  /**
   * As above, but carol pulled all three blocks in one page, so she recorded the authority's chain at
   * position 3 only: a back-fill from 3 starts her over from the start, and the pull finds bob's key
   * with other content where she holds it.
   */
  @Test
  void aBackFillRewindWithNoChainRecordedBelowItStartsOver() {
    Replica carol = replicas.open("carol");
    FeedId backFilled = aKeyReusedBelowCarolsCursor(carol);

    carol.replicate(SPACE, backFilled, Replication.from(Position.of(3)));
    assertEquals(0, carol.sync(SPACE).state().cursor().value(), "nothing to check the history with below 3");
    settleWithoutAnotherRollback(carol);
    assertTrue(driver.saw(SyncStep.Kind.PULLED, "cursor 3"), driver.steps().toString());
  }

  /**
   * Sets up {@code carol} holding "first-0" of bob at position 1 and two blocks of alice at 2 and 3,
   * and an authority rolled back that holds "second-0" under bob's key at 1 and alice's blocks at 2
   * and 3 again. Returns a feed of alice's that carol does not replicate yet.
   */
  private FeedId aKeyReusedBelowCarolsCursor(Replica carol) {
    Replica alice = replicaFollowingTheFeed("alice");
    Replica bob = replicaFollowingTheFeed("bob");
    follow(carol);
    FeedId other = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
    BeforeFirst copies = bobWritesFirst(bob);
    replicas.append(alice, SPACE, feed, "a", 2);
    assertEquals(SyncStep.Kind.PUSHED, driver.push(alice).kind());
    driver.untilQuiet(10, carol);
    assertEquals(3, carol.sync(SPACE).state().cursor().value());

    bob = rollBackWithBob(copies);
    driver.untilQuiet(10, alice);
    List<Block> now = authority.store().read(tx -> tx.blocks().feed(SPACE, feed));
    List<Block> carols = carol.read(SPACE, feed);
    assertEquals(carols.stream().map(b -> b.key() + "@" + b.position()).toList(),
        now.stream().map(b -> b.key() + "@" + b.position()).toList(), "the keys line up at every position");
    assertNotEquals(carols.get(0).data(), now.get(0).data());
    return other;
  }

  private void settleAndCheck(Replica... all) {
    driver.untilQuiet(20, all);
    assertConverged(authority.store(), SPACE, List.of(feed), all);
    assertExactlyOnce(authority.store(), SPACE, replicas.written());
  }

  /** Copies of the authority and of bob's file made before bob wrote "first", and bob reopened. */
  private record BeforeFirst(Path authorityCopy, Path bobCopy, Replica bob) {}

  /** Copies the authority and bob, then bob writes "first" and pushes it, and {@code pullers} pull it. */
  private BeforeFirst bobWritesFirst(Replica bob, Replica... pullers) {
    Path authorityCopy = authority.snapshot();
    Path bobCopy = replicas.backup(bob, "bob-before");
    Replica reopened = replicas.open("bob");
    replicas.append(reopened, SPACE, feed, "first", 1);
    driver.untilQuiet(10, reopened);
    if (pullers.length > 0) {
      driver.untilQuiet(10, pullers);
    }
    return new BeforeFirst(authorityCopy, bobCopy, reopened);
  }

  /** Restores the authority and bob from the copies; bob writes "second" and pushes it. */
  private Replica rollBackWithBob(BeforeFirst copies) {
    authority.restoreFrom(copies.authorityCopy());
    copies.bob().close();
    Replica restored = replicas.restore("bob", copies.bobCopy());
    replicas.append(restored, SPACE, feed, "second", 1);
    driver.untilQuiet(10, restored);
    return restored;
  }

  private void assertSameKeyOtherContentAt(Block first) {
    Block now = authority.store().read(tx -> tx.blocks().atPosition(SPACE, first.position())).orElseThrow();
    assertEquals(first.key(), now.key(), "the same key at the same position");
    assertEquals("first-0", first.data().toStringUtf8());
    assertNotEquals(first.data(), now.data());
  }

  private void assertReplaysAsTheHistoryChainDiffers(Replica replica) {
    SyncStep step = driver.pull(replica);
    assertEquals(SyncStep.Kind.ROLLED_BACK, step.kind(), step.detail());
    assertTrue(step.detail().contains("history chain differs"), step.detail());
  }

  /** Every replica converges, with no rollback found after the one the test provoked. */
  private void settleWithoutAnotherRollback(Replica... all) {
    int before = driver.steps().size();
    driver.untilQuiet(20, all);
    List<SyncStep> settling = driver.steps().subList(before, driver.steps().size());
    assertTrue(settling.stream().noneMatch(s -> s.kind() == SyncStep.Kind.ROLLED_BACK),
        "one replay, not restarted: " + settling);
    assertConverged(authority.store(), SPACE, List.of(feed), all);
    assertExactlyOnce(authority.store(), SPACE, replicas.written());
  }

  /**
   * Rewrites the authority's links at positions 1..{@code through} as a release whose chain digested
   * keys only stored them; returns the link at {@code through}.
   */
  private long storeKeysOnlyChains(long through) {
    return authority.store().write(tx -> {
      long chain = HistoryChain.START;
      for (long p = 1; p <= through; p++) {
        Position position = Position.of(p);
        chain = keysOnlyLink(chain, tx.blocks().atPosition(SPACE, position).orElseThrow().key());
        tx.blocks().setChain(SPACE, position, chain);
      }
      return chain;
    });
  }

  /** The link of the history chain's first form: SHA-256 over the previous link and the key only. */
  private static long keysOnlyLink(long previous, BlockKey key) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      digest.update(ByteBuffer.allocate(Long.BYTES).putLong(previous).array());
      digest.update(key.feedId().value().getBytes(StandardCharsets.US_ASCII));
      digest.update((byte) 0);
      digest.update(key.actorId().value().getBytes(StandardCharsets.US_ASCII));
      digest.update((byte) 0);
      digest.update(ByteBuffer.allocate(Long.BYTES).putLong(key.sequence().value()).array());
      return ByteBuffer.wrap(digest.digest()).getLong();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
