package dev.feedstore.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.feedstore.proto.v1.Block;
import dev.feedstore.server.testing.Calls;
import dev.feedstore.testing.Await;
import dev.feedstore.testing.ServerProcess;
import io.grpc.Channel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole system as separate processes: the runnable server jar on a free loopback port, and two
 * replica processes ({@code examples.jar append-and-sync}) that append blocks over time while they
 * sync. The server is killed with SIGKILL while they append, they carry on offline, it is started
 * again on the same port and database, and both replicas converge: every block once on the server
 * and on both replicas, at the same positions everywhere.
 */
class EndToEndIT {
  private static final int COUNT = 60;
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path dir;
  /** The server's channel, which reaches it across its restart. */
  Channel channel;

  @Test
  void twoReplicaProcessesConvergeWithNothingLostWhenTheServerIsKilledUnderThem() throws Exception {
    long began = System.nanoTime();
    try (ServerProcess server = ServerProcess.start(dir, "feeds.db", ServerProcess.freePort());
         ReplicaProcess alice = new ReplicaProcess(dir, "alice");
         ReplicaProcess bob = new ReplicaProcess(dir, "bob")) {
      server.awaitServing();
      channel = server.channel();
      alice.start(server.address(), COUNT, 2 * COUNT);
      bob.start(server.address(), COUNT, 2 * COUNT);
      Await.until("the server holds 5 blocks of each replica", WAIT, () -> {
        Map<String, Long> stored = serverBlocks();
        return stored.keySet().stream().filter(d -> d.startsWith("alice-")).count() >= 5
            && stored.keySet().stream().filter(d -> d.startsWith("bob-")).count() >= 5;
      });

      server.kill();
      int aliceAtKill = alice.lines().size();
      int bobAtKill = bob.lines().size();
      int aliceAppended = alice.appended();
      int bobAppended = bob.appended();
      Await.until("both replicas went offline and appended 5 more blocks", WAIT, () ->
          alice.wentOfflineAfter(aliceAtKill) && bob.wentOfflineAfter(bobAtKill)
              && alice.appended() >= Math.min(COUNT, aliceAppended + 5) && bob.appended() >= Math.min(COUNT, bobAppended + 5));
      System.out.printf("end-to-end: killed the server after %d and %d appends; restarting it after %d and %d%n",
          aliceAppended, bobAppended, alice.appended(), bob.appended());

      server.restart();
      server.awaitServing();
      Map<String, Long> atAlice = alice.awaitConvergedBlocks();
      Map<String, Long> atBob = bob.awaitConvergedBlocks();
      Map<String, Long> atServer = serverBlocks();

      Set<String> written = Stream.of("alice", "bob")
          .flatMap(actor -> IntStream.range(0, COUNT).mapToObj(i -> actor + "-" + i)).collect(Collectors.toSet());
      assertEquals(written, atServer.keySet(), "every appended block is on the server");
      assertEquals(2 * COUNT, new HashSet<>(atServer.values()).size(), "each at a position of its own");
      assertEquals(atServer, atAlice, "alice holds every block at the server's position");
      assertEquals(atServer, atBob, "bob holds every block at the server's position");
      assertEquals(0, server.stop(), "SIGTERM stops the restarted server cleanly");
    }
    System.out.printf("end-to-end: %d blocks, SIGKILL and restart of the server, converged in %.1f s%n",
        2 * COUNT, (System.nanoTime() - began) / 1e9);
  }

  /** The data of every block of the space on the server, with its position; fails on a duplicate. */
  private Map<String, Long> serverBlocks() {
    Map<String, Long> blocks = new TreeMap<>();
    for (Block block : Calls.allBlocks(channel, ReplicaProcess.SPACE)) {
      Long before = blocks.put(block.getData().toStringUtf8(), block.getPosition());
      assertEquals(null, before, "a block is stored once: " + block.getData().toStringUtf8());
    }
    return blocks;
  }
}
