package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.Await;
import dev.feedstore.core.testing.SmallDisk;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.server.testing.HealthChecks;
import dev.feedstore.server.testing.ServerProcess;
import dev.feedstore.server.testing.Wire;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import java.nio.file.Files;
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
 * The runnable server with its database on a small file system of its own (a tmpfs): clients append
 * until the disk is full and keep appending into it (RESOURCE_EXHAUSTED, health NOT_SERVING); the
 * server is killed with SIGKILL in the middle of that; started again on the still-full disk it
 * refuses to start, naming the full disk; once space is freed it starts, every block a client saw
 * acknowledged is at its position ({@link CrashChecks}), and the clients carry on.
 */
class DiskFullCrashIT {
  private static final int CLIENTS = 3;

  @TempDir Path dir;
  final Random random = new Random(20261201);
  final CrashAppender.Gate gate = new CrashAppender.Gate();
  final List<CrashAppender> appenders = new ArrayList<>();
  final List<Thread> threads = new ArrayList<>();
  final List<ManagedChannel> channels = new ArrayList<>();
  SmallDisk disk;
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
    if (disk != null) {
      disk.close();
    }
  }

  @Test
  void nothingAcknowledgedIsLostWhenTheServerIsKilledWhileItsDiskIsFull() throws Exception {
    disk = SmallDisk.mount(Files.createDirectory(dir.resolve("disk")), 8 << 20);
    disk.reserve(4 << 20);
    String db = disk.dir().resolve("feeds.db").toString();
    int port = ServerProcess.freePort();
    server = ServerProcess.start(dir, db, port, "--write-probe-ms", "200");
    ManagedChannel control = channel(port);
    server.awaitServing(control);
    FeedId shared = TestBlocks.feedId();
    for (int i = 0; i < CLIENTS; i++) {
      CrashAppender appender = new CrashAppender("client-" + i, List.of(TestBlocks.feedId(), shared), channel(port),
          gate, random.nextLong());
      appenders.add(appender);
      Thread thread = new Thread(appender, appender.actor);
      threads.add(thread);
      thread.start();
    }

    HealthChecks.await(control, ServingStatus.NOT_SERVING);
    // Take what the clients' retried batches left too: the disk is full for writes of any size.
    disk.fill();
    StatusRuntimeException full = assertThrows(StatusRuntimeException.class, () -> stub(control)
        .append(Wire.append(CrashIT.SPACE, Wire.blocks(TestBlocks.feedId(), "probe", 0, 50))));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, full.getStatus().getCode(), full.getStatus().toString());
    assertTrue(full.getStatus().getDescription().contains("the disk holding the server's database feeds.db is full"),
        full.getStatus().getDescription());
    long failedBefore = failedCalls();
    Await.until("clients keep appending into the full disk", Duration.ofSeconds(60),
        () -> failedCalls() >= failedBefore + 20);
    server.kill(); // in the middle of the clients' failing calls
    gate.close();
    int acknowledgedBeforeKill = CrashChecks.acknowledged(appenders).size();

    server = ServerProcess.start(dir, db, port, "--write-probe-ms", "200");
    assertTrue(server.process().waitFor(60, TimeUnit.SECONDS), "a server on a full disk does not start");
    assertEquals(1, server.process().exitValue(), server.output());
    assertTrue(server.output().contains("cannot start: the disk holding " + db + " is full: free space on it"),
        server.output());

    disk.release();
    server = ServerProcess.start(dir, db, port, "--write-probe-ms", "200");
    server.awaitServing(control);
    Map<String, Block> acknowledged = CrashChecks.acknowledged(appenders);
    CrashChecks checks = new CrashChecks();
    checks.check(CrashChecks.read(control), acknowledged, appenders, "after the kill on a full disk");
    for (ManagedChannel channel : channels) {
      channel.resetConnectBackoff();
    }
    gate.open();
    long target = acknowledged.size() + 300;
    Await.until("the clients carry on after space was freed", Duration.ofSeconds(120),
        () -> CrashChecks.acknowledged(appenders).size() >= target);
    appenders.forEach(CrashAppender::stop);
    for (Thread thread : threads) {
      thread.join(30_000);
      assertFalse(thread.isAlive(), thread.getName() + " ended");
    }
    Map<String, Block> stored = CrashChecks.read(control);
    checks.check(stored, CrashChecks.acknowledged(appenders), appenders, "at the end");
    System.out.printf("disk-full crash test: %d blocks acknowledged before the SIGKILL on a full disk, all present"
            + " after it; %d calls failed; in-doubt batches committed whole %d times, absent whole %d times;"
            + " %d blocks stored at the end, positions 1..%d dense%n", acknowledgedBeforeKill, failedCalls(),
        checks.inDoubtCommitted, checks.inDoubtAbsent, stored.size(), stored.size());
  }

  private long failedCalls() {
    return appenders.stream().mapToLong(a -> a.failedCalls.get()).sum();
  }

  private static FeedSyncGrpc.FeedSyncBlockingStub stub(ManagedChannel channel) {
    return FeedSyncGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  private ManagedChannel channel(int port) {
    ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1", port, InsecureChannelCredentials.create())
        .build();
    channels.add(channel);
    return channel;
  }
}
