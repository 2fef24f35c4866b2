package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.core.testing.Await;
import dev.feedstore.server.testing.ServerProcess;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
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
 */
class CrashIT {
  static final String SPACE = "crash";
  private static final int CLIENTS = 4;
  private static final int KILLS = Boolean.getBoolean("feed.hostile.heavy") ? 10 : 3;

  @TempDir Path dir;
  final Random random = new Random(20260301);
  final CrashAppender.Gate gate = new CrashAppender.Gate();
  final List<CrashAppender> appenders = new ArrayList<>();
  final List<Thread> threads = new ArrayList<>();
  final List<ManagedChannel> channels = new ArrayList<>();
  final CrashChecks checks = new CrashChecks();
  ServerProcess server;

  @AfterEach
  void stop() throws InterruptedException {
    appenders.forEach(CrashAppender::stop);
    gate.open();
    for (Thread thread : threads) {
      thread.join(30_000);
    }
    for (ManagedChannel channel : channels) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void everyAcknowledgedAppendSurvivesSigkillAtItsPositionAndClientsCarryOn() throws Exception {
    int port = ServerProcess.freePort();
    server = ServerProcess.start(dir, "feeds.db", port);
    ManagedChannel control = channel(port);
    server.awaitServing(control);
    FeedId shared = TestBlocks.feedId();
    for (int i = 0; i < CLIENTS; i++) {
      ManagedChannel channel = channel(port);
      CrashAppender appender = new CrashAppender("client-" + i, List.of(TestBlocks.feedId(), TestBlocks.feedId(), shared),
          channel, gate, random.nextLong());
      appenders.add(appender);
      Thread thread = new Thread(appender, appender.actor);
      threads.add(thread);
      thread.start();
    }
    long started = System.nanoTime();

    for (int kill = 1; kill <= KILLS; kill++) {
      awaitMoreAcknowledged(300 + random.nextInt(1500));
      gate.close();
      server.kill(); // in the middle of the clients' calls
      server = ServerProcess.start(dir, "feeds.db", port);
      server.awaitServing(control);
      Map<String, Block> acknowledged = CrashChecks.acknowledged(appenders);
      checks.check(CrashChecks.read(control), acknowledged, appenders, "after kill " + kill);
      for (ManagedChannel channel : channels) {
        channel.resetConnectBackoff();
      }
      gate.open();
    }
    awaitMoreAcknowledged(1000); // the clients carry on after the last restart

    appenders.forEach(CrashAppender::stop);
    for (Thread thread : threads) {
      thread.join(30_000);
      assertFalse(thread.isAlive(), thread.getName() + " ended");
    }
    Map<String, Block> acknowledged = CrashChecks.acknowledged(appenders);
    Map<String, Block> stored = CrashChecks.read(control);
    checks.check(stored, acknowledged, appenders, "at the end");
    long appends = appenders.stream().mapToLong(a -> a.acknowledgedAppends.get()).sum();
    long failed = appenders.stream().mapToLong(a -> a.failedCalls.get()).sum();
    System.out.printf("crash test: %d SIGKILLs under %d appending clients in %.1f s; %d appends (%d blocks)"
            + " acknowledged, all present at their positions after every restart; %d calls failed by the kills;"
            + " in-doubt batches found committed whole %d times, absent whole %d times, never partial;"
            + " %d blocks stored, positions 1..%d dense%n",
        KILLS, CLIENTS, (System.nanoTime() - started) / 1e9, appends, acknowledged.size(), failed,
        checks.inDoubtCommitted, checks.inDoubtAbsent, stored.size(), stored.size());
    assertFalse(server.output().contains(" ERROR "), server.output());
  }

  private void awaitMoreAcknowledged(int blocks) {
    long target = acknowledgedCount() + blocks;
    Await.until(target + " blocks acknowledged", Duration.ofSeconds(120), () -> acknowledgedCount() >= target);
  }

  private long acknowledgedCount() {
    return appenders.stream().mapToLong(a -> a.acknowledged.size()).sum();
  }

  private ManagedChannel channel(int port) {
    ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1", port, InsecureChannelCredentials.create())
        .build();
    channels.add(channel);
    return channel;
  }
}
