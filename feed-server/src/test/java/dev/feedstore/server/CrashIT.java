package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.server.testing.MetricsSamples;
import dev.feedstore.testing.ServerProcess;
import io.grpc.ManagedChannel;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills the runnable server with SIGKILL while several clients append, restarts it on the same
 * database, and checks after every restart ({@link CrashChecks}) that every block a client saw
 * acknowledged is stored at the position it was given, with the same content; that positions are
 * dense and unique; that a call the crash cut (in doubt) committed all its blocks or none; and that
 * what was read after one crash is unchanged after the next. The clients then send their in-doubt batches again and carry
 * on. Three kills by default, ten with {@code -Dfeed.hostile.heavy=true}.
 *
 * <p>Two shapes: a few clients with batches of 1 to 500 blocks, and fifty clients with batches of
 * 1 to 3, whose calls overlap so that the server commits them in groups (group commit); there the
 * test also reads the server's group counters before each kill and requires that groups of more
 * than one append were committed, so the kills land among real groups.
 */
class CrashIT {
  static final String SPACE = "crash";
  private static final int KILLS = Boolean.getBoolean("feed.hostile.heavy") ? 10 : 3;

  @TempDir Path dir;
  final Random random = new Random(20260301);
  final CrashClients clients = new CrashClients();
  final CrashChecks checks = new CrashChecks();
  ServerProcess server;
  long groups;
  long groupedAppends;

  @AfterEach
  void stop() throws InterruptedException {
    clients.close();
    if (server != null) {
      server.close();
    }
  }

  @Test
  void everyAcknowledgedAppendSurvivesSigkillAtItsPositionAndClientsCarryOn() throws Exception {
    killWhileAppending(4, CrashAppender.MIXED_BATCHES, 300, 1500);
  }

  @Test
  void fiftyConcurrentWritersCommittedInGroupsSurviveSigkillWholeOrAbsentPerCall() throws Exception {
    killWhileAppending(50, CrashAppender.SMALL_BATCHES, 1000, 2000);
    assertTrue(groupedAppends > groups, "the server committed groups of more than one append: " + groupedAppends
        + " appends in " + groups + " groups");
    System.out.printf("group commit under crashes: %d appends in %d groups before the kills (%.1f per group)%n",
        groupedAppends, groups, groupedAppends / (double) groups);
  }

  /** Kills the server {@link #KILLS} times after {@code minBlocks} to {@code minBlocks + spread} more blocks are acknowledged. */
  private void killWhileAppending(int clientCount, int[] batchSizes, int minBlocks, int spread) throws Exception {
    int port = ServerProcess.freePort();
    int metricsPort = ServerProcess.freePort();
    String[] flags = {"--metrics-port", String.valueOf(metricsPort)};
    server = ServerProcess.start(dir, "feeds.db", port, flags);
    ManagedChannel control = clients.channel(port);
    server.awaitServing(control);
    clients.start(clientCount, port, 2, TestBlocks.feedId(), random, batchSizes);
    long started = System.nanoTime();

    for (int kill = 1; kill <= KILLS; kill++) {
      clients.awaitMoreAcknowledged(minBlocks + random.nextInt(spread));
      countGroups(metricsPort);
      clients.gate.close();
      server.kill(); // in the middle of the clients' calls
      server = ServerProcess.start(dir, "feeds.db", port, flags);
      server.awaitServing(control);
      checks.checkRead(control, clients, "after kill " + kill);
      clients.resetConnectBackoff();
      clients.gate.open();
    }
    clients.awaitMoreAcknowledged(1000); // the clients carry on after the last restart

    clients.stopAndJoin();
    Map<String, Block> acknowledged = clients.acknowledged();
    Map<String, Block> stored = CrashChecks.read(control);
    checks.check(stored, acknowledged, clients.appenders, "at the end");
    long appends = clients.acknowledgedAppends();
    long failed = clients.failedCalls();
    System.out.printf("crash test: %d SIGKILLs under %d appending clients in %.1f s; %d appends (%d blocks)"
            + " acknowledged, all present at their positions after every restart; %d calls failed by the kills;"
            + " in-doubt batches found committed whole %d times, absent whole %d times, never partial;"
            + " %d blocks stored, positions 1..%d dense%n",
        KILLS, clientCount, (System.nanoTime() - started) / 1e9, appends, acknowledged.size(), failed,
        checks.inDoubtCommitted, checks.inDoubtAbsent, stored.size(), stored.size());
    assertFalse(server.output().contains(" ERROR "), server.output());
  }

  /** Adds the group counters of the running server (from its start) to the totals. */
  private void countGroups(int metricsPort) {
    Map<String, Double> samples = MetricsSamples.scrape(metricsPort);
    groups += samples.get("feedstore_append_groups_total").longValue();
    groupedAppends += samples.get("feedstore_append_grouped_total").longValue();
  }
}
