package dev.feedstore.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.Replicas;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Replication;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.testing.SyncDriver;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ListenerTest {
  private static final SpaceId SPACE = SpaceId.of("team");

  @TempDir Path dir;

  @Test
  void listenerSeesLocalAppendsPositionsAndPulledBlocksInOrder() throws Exception {
    try (RestartableServer authority = RestartableServer.inProcess(dir); Replicas replicas = new Replicas(dir)) {
      SyncDriver<Replica> driver = Replicas.driver(authority.channel(), SPACE);
      Replica alice = replicas.open("alice");
      Replica bob = replicas.open("bob");
      FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      bob.replicate(SPACE, feed, Replication.fullHistory());
      BlockingQueue<FeedUpdate> updates = new LinkedBlockingQueue<>();
      try (Registration registration = alice.listen(SPACE, Scope.feeds(Set.of(feed)), updates::add)) {
        FeedUpdate initial = next(updates);
        assertTrue(initial.initial());
        assertEquals(List.of(), initial.feeds().get(feed));

        alice.append(SPACE, feed, BlockData.utf8("mine"));
        List<Block> afterAppend = next(updates).feeds().get(feed);
        assertEquals(1, afterAppend.size());
        assertTrue(!afterAppend.get(0).isPositioned(), "first seen unpositioned");

        driver.push(alice);
        List<Block> afterPush = next(updates).feeds().get(feed);
        assertEquals(1, afterPush.get(0).position().value(), "then with its position");

        bob.append(SPACE, feed, BlockData.utf8("theirs"));
        driver.push(bob);
        driver.pull(alice);
        List<Block> afterPull = next(updates).feeds().get(feed);
        assertEquals(List.of("mine", "theirs"), afterPull.stream().map(b -> b.data().toStringUtf8()).toList());
        assertEquals(2, afterPull.get(1).position().value());
      }
      alice.append(SPACE, feed, BlockData.utf8("after close"));
      assertEquals(null, updates.poll(200, TimeUnit.MILLISECONDS), "no update after the registration closed");
    }
  }

  @Test
  void namespaceListenerSeesFeedsItDidNotKnowWhenItStarted() throws Exception {
    try (RestartableServer authority = RestartableServer.inProcess(dir); Replicas replicas = new Replicas(dir)) {
      Replica alice = replicas.open("alice");
      var notes = dev.feedstore.core.Namespace.of("notes");
      BlockingQueue<FeedUpdate> updates = new LinkedBlockingQueue<>();
      alice.listen(SPACE, Scope.namespace(notes), updates::add);
      assertTrue(next(updates).feeds().isEmpty());
      FeedId later = alice.createFeed(SPACE, Optional.of(notes), Replication.NONE);
      FeedId elsewhere = alice.createFeed(SPACE, Optional.empty(), Replication.NONE);
      alice.append(SPACE, elsewhere, BlockData.utf8("not a note"));
      alice.append(SPACE, later, BlockData.utf8("a note"));
      FeedUpdate update = next(updates);
      assertEquals(Set.of(later), update.feeds().keySet());
    }
  }

  private static FeedUpdate next(BlockingQueue<FeedUpdate> updates) throws InterruptedException {
    FeedUpdate update = updates.poll(20, TimeUnit.SECONDS);
    assertNotNull(update, "an update arrives");
    return update;
  }
}
