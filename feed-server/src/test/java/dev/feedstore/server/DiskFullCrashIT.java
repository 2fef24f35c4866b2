package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.server.testing.Calls;
import dev.feedstore.server.testing.HealthChecks;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.testing.Await;
import dev.feedstore.testing.ServerProcess;
import dev.feedstore.testing.SmallDisk;
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
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runnable server with its database on a small file system of its own (a tmpfs): clients append
 * until the disk is full and keep appending into it (RESOURCE_EXHAUSTED, health NOT_SERVING); the
 * server is killed with SIGKILL in the middle of that; started again on the still-full disk it
 * serves reads (every block a client saw acknowledged is at its position, {@link CrashChecks}) with
 * health NOT_SERVING for writes and SERVING for reads, and logs how much to free; once space is
 * freed the same process takes writes, and the clients carry on.
 */
class DiskFullCrashIT {
  private static final int CLIENTS = 3;

  @TempDir Path dir;
  final CrashClients clients = new CrashClients();
  SmallDisk disk;
  ServerProcess server;

  @AfterEach
  void stop() throws InterruptedException {
    clients.close();
    if (server != null) {
      server.close();
    }
    if (disk != null) {
      disk.close();
    }
  }

  @Test
  void nothingAcknowledgedIsLostWhenTheServerIsKilledWhileItsDiskIsFull() throws Exception {
    // The clients fill 4 MiB; the ballast, freed, leaves room to checkpoint a WAL that holds all of
    // it, which a SIGKILL may leave behind (a full checkpoint asks for the file's growth plus a margin).
    disk = SmallDisk.mount(Files.createDirectory(dir.resolve("disk")), 16 << 20);
    disk.reserve(12 << 20);
    String db = disk.dir().resolve("feeds.db").toString();
    int port = ServerProcess.freePort();
    server = ServerProcess.start(dir, db, port, "--write-probe-ms", "200");
    ManagedChannel control = clients.channel(port);
    server.awaitServing(control);
    clients.start(CLIENTS, port, 1, TestBlocks.feedId(), new Random(20261201), CrashAppender.MIXED_BATCHES);

    HealthChecks.await(control, ServingStatus.NOT_SERVING);
    // Take what the clients' retried batches left too, so that the disk is full for the probe as
    // well. Small commits may still fit in space the WAL holds already; 5 MiB does not.
    disk.fill();
    StatusRuntimeException full = assertThrows(StatusRuntimeException.class, () -> Calls.blocking(control)
        .append(Wire.append(CrashIT.SPACE, mebibyteBlocks(5))));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, full.getStatus().getCode(), full.getStatus().toString());
    assertTrue(full.getStatus().getDescription().contains("the disk holding the server's database feeds.db is full"),
        full.getStatus().getDescription());
    long failedBefore = clients.failedCalls();
    Await.until("clients keep appending into the full disk", Duration.ofSeconds(60),
        () -> clients.failedCalls() >= failedBefore + 20);
    clients.gate.close(); // first, as CrashIT does: a call the kill fails then waits here, not for the next server
    server.kill(); // in the middle of the clients' failing calls
    int acknowledgedBeforeKill = clients.acknowledged().size();

    disk.fill(); // whatever the killed process's last commits left free
    server = ServerProcess.start(dir, db, port, "--write-probe-ms", "200");
    server.awaitHealth(control, HealthChecks.READS, ServingStatus.SERVING);
    assertEquals(ServingStatus.NOT_SERVING, HealthChecks.status(control, ""), "it takes no writes");
    CrashChecks checks = new CrashChecks();
    checks.checkRead(control, clients, "after the kill, served from the full disk");
    StatusRuntimeException stillFull = assertThrows(StatusRuntimeException.class, () -> Calls.blocking(control)
        .append(Wire.append(CrashIT.SPACE, mebibyteBlocks(1))));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, stillFull.getStatus().getCode(), stillFull.getStatus().toString());
    server.awaitOutput("writes to the database fail: the disk holding " + db + " is full");
    assertTrue(Pattern.compile("free at least \\d+ MB").matcher(server.output()).find(), server.output());
    assertFalse(server.output().contains("cannot start"), server.output());

    disk.release();
    server.awaitServing(control); // the same process, once there is room
    checks.checkRead(control, clients, "after space was freed");
    clients.resetConnectBackoff();
    clients.gate.open();
    clients.awaitMoreAcknowledged(300); // the clients carry on after space was freed
    clients.stopAndJoin();
    Map<String, Block> stored = checks.checkRead(control, clients, "at the end");
    System.out.printf("disk-full crash test: %d blocks acknowledged before the SIGKILL on a full disk, all present"
            + " after it; %d calls failed; in-doubt batches committed whole %d times, absent whole %d times;"
            + " %d blocks stored at the end, positions 1..%d dense%n", acknowledgedBeforeKill, clients.failedCalls(),
        checks.inDoubtCommitted, checks.inDoubtAbsent, stored.size(), stored.size());
  }

  private static List<dev.feedstore.proto.v1.Block> mebibyteBlocks(int count) {
    FeedId feed = TestBlocks.feedId();
    List<dev.feedstore.proto.v1.Block> blocks = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      blocks.add(Wire.block(feed, "big", i).toBuilder().setData(ByteString.copyFrom(new byte[1 << 20])).build());
    }
    return blocks;
  }
}
