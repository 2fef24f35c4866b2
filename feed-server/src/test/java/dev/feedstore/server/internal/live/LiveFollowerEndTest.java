package dev.feedstore.server.internal.live;

import static dev.feedstore.server.settings.ServerSettings.WATCH_BATCH_BLOCKS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.feedstore.server.internal.errors.ShuttingDownException;
import dev.feedstore.server.settings.ServerSettings;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A live stream ends with a status and is released however its drain stops: when the watch
 * executor takes no more work (the server is stopping) it ends {@code UNAVAILABLE}, whether a
 * signal or its own next turn found the executor closed; when an {@code Error} escapes its drain it
 * ends as the server's failure, is released, and the error goes on up.
 */
class LiveFollowerEndTest {
  @TempDir Path dir;
  FollowedSpace space;
  final ManualExecutor drains = new ManualExecutor();
  final RecordingSink sink = new RecordingSink();

  @AfterEach
  void close() {
    space.close();
  }

  @Test
  void aSignalTheExecutorRefusesAtShutdownEndsTheStreamAsShuttingDownAndReleasesIt() {
    space = new FollowedSpace(dir, ServerSettings.DEFAULTS);
    space.append(1);
    space.committedAndSignalled(); // else the commit's signal may reach the follower after it drained
    FollowedSpace.Follower follower = space.follower(0, sink, drains);
    follower.follower().start();
    drains.runAll();
    assertEquals(List.of(1L), sink.positions);

    drains.shutDown();
    follower.follower().signal(); // as a commit during shutdown

    assertInstanceOf(ShuttingDownException.class, sink.ended);
    assertReleasedOnce(follower);
  }

  @Test
  void aTurnTheExecutorRefusesAtShutdownEndsTheStreamAsShuttingDownAndReleasesIt() {
    space = new FollowedSpace(dir, ServerSettings.newBuilder().set(WATCH_BATCH_BLOCKS, 10).build());
    space.append(500);
    FollowedSpace.Follower follower = space.follower(0, sink, drains);
    follower.follower().start();

    drains.shutDown();
    drains.runNext(); // one turn; the next is refused

    assertEquals(80, sink.positions.size(), "one turn of 8 batches");
    assertInstanceOf(ShuttingDownException.class, sink.ended);
    assertReleasedOnce(follower);
  }

  @Test
  void anErrorEscapingTheDrainEndsAndReleasesTheStreamAndGoesOnUp() {
    space = new FollowedSpace(dir, ServerSettings.DEFAULTS);
    space.append(1);
    OutOfMemoryError error = new OutOfMemoryError("a test's");
    sink.beforeEvent = () -> {
      throw error;
    };
    FollowedSpace.Follower follower = space.follower(0, sink, drains);
    follower.follower().start();

    assertSame(error, assertThrows(OutOfMemoryError.class, drains::runNext));

    assertInstanceOf(IllegalStateException.class, sink.ended, "the server's own failure: INTERNAL");
    assertSame(error, sink.ended.getCause());
    assertReleasedOnce(follower);
    follower.follower().end(new ShuttingDownException());
    follower.follower().signal();
    assertEquals(0, drains.queued(), "a released stream's drain is not scheduled again");
  }

  private static void assertReleasedOnce(FollowedSpace.Follower follower) {
    assertEquals(1, follower.releases().get(), "releases");
    assertEquals(0, follower.space().tail().watcherCount(), "watchers of the space's tail");
  }
}
