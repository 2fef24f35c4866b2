package dev.feedstore.sqlite.sync;

import static dev.feedstore.sqlite.sync.SyncFixture.SPACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.Block;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.Predecessor;
import dev.feedstore.core.sync.SyncStep;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * DESIGN 5.3: the authority holds some pushed keys with other content; the replica's blocks under
 * those keys get new sequences (content, author and links kept) and are pushed again, and no block
 * is lost.
 */
class SequenceConflictTest {
  @RegisterExtension final SyncFixture sync = new SyncFixture();

  @Test
  void aReplicaRestoredFromAnOldBackupRekeysWhatItWritesAgainUnderUsedSequences() {
    StoreReplica alice = sync.replica("alice");
    FeedId feed = alice.createFeed();
    sync.append(alice, feed, "before-backup", 2);
    sync.driver.untilQuiet(10, alice);
    Path backup = alice.backupTo(sync.file("alice-old.db"));
    sync.append(alice, feed, "after-backup", 2);
    sync.driver.untilQuiet(10, alice);

    // The laptop is restored from the old backup and writes again under sequences 2, 3 and 4.
    alice.restoreFrom(backup);
    sync.append(alice, feed, "rewritten", 3);
    SyncStep step = sync.driver.push(alice);

    assertEquals(SyncStep.Kind.REKEYED, step.kind(), step.detail());
    assertEquals(2, step.blocks(), "the blocks under the two keys the authority holds: " + step.detail());
    Map<String, Block> byData = alice.read(feed).stream()
        .collect(Collectors.toMap(b -> b.data().toStringUtf8(), Function.identity()));
    assertTrue(byData.get("rewritten-0").sequence().value() > 4, "moved past every used sequence");
    assertEquals(Optional.of(Predecessor.of(byData.get("rewritten-0").key())), byData.get("rewritten-1").predecessor(),
        "the moved blocks still point at each other in the order they were written");
    assertEquals(Optional.of(Predecessor.of(byData.get("rewritten-1").key())), byData.get("rewritten-2").predecessor());
    assertEquals(SyncStep.Kind.PUSHED, sync.driver.push(alice).kind(), "pushed again under the new keys");

    sync.settleAndCheck(feed, alice);
    List<Block> blocks = alice.read(feed);
    assertEquals(7, blocks.size());
    Set<BlockKey> keys = new HashSet<>();
    blocks.forEach(b -> assertTrue(keys.add(b.key()), "distinct keys"));
  }

  @Test
  void aConflictRekeysOnlyTheBlocksUnderTheKeysNamedAndWritesNothingOnTheAuthority() {
    StoreReplica alice = sync.replica("alice");
    FeedId feed = alice.createFeed();
    sync.append(alice, feed, "kept", 1);
    sync.driver.untilQuiet(10, alice);
    Path backup = alice.backupTo(sync.file("alice-old.db"));
    sync.append(alice, feed, "first", 1);
    sync.driver.untilQuiet(10, alice);
    alice.restoreFrom(backup);
    sync.append(alice, feed, "second", 1);
    sync.append(alice, feed, "new", 1);
    BlockKey newKey = alice.read(feed).get(2).key();

    SyncStep step = sync.driver.push(alice);

    assertEquals(SyncStep.Kind.REKEYED, step.kind(), step.detail());
    assertEquals(1, step.blocks(), step.detail());
    assertEquals(2, sync.authority.blocks(SPACE).size(), "the refused append wrote nothing");
    Map<String, Block> byData = alice.read(feed).stream()
        .collect(Collectors.toMap(b -> b.data().toStringUtf8(), Function.identity()));
    assertEquals(Position.of(1), byData.get("kept-0").position(), "the positioned block keeps its key and place");
    assertEquals(newKey, byData.get("new-0").key(), "a block under a key the authority does not hold keeps it");
    assertEquals(3, byData.get("second-0").sequence().value(), "the feed's highest sequence plus one");
    assertEquals(Optional.of(Predecessor.of(byData.get("second-0").key())), byData.get("new-0").predecessor(),
        "new, sent for the first time in the refused append, follows second to its new key");
    sync.settleAndCheck(feed, alice);
  }
}
