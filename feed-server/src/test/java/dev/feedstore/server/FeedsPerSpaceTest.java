package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.FEEDS_PER_SPACE;
import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.Census;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code feeds-per-space}: an Append that would create more feeds in a space than the setting
 * allows is refused naming it, and writes nothing (nor the space, when it is the space's first);
 * appends to the feeds a space has go on. The count is the store's, so a restart keeps the bound.
 */
class FeedsPerSpaceTest {
  private static final ServerSettings SETTINGS =
      ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).set(FEEDS_PER_SPACE, 3).build();

  @TempDir Path dir;

  @Test
  void anAppendCreatingOneFeedTooManyIsRefusedNamingTheSettingAndWritesNothing() {
    FeedId a = TestBlocks.feedId();
    FeedId b = TestBlocks.feedId();
    FeedId c = TestBlocks.feedId();
    FeedId d = TestBlocks.feedId();
    try (TestServer t = TestServer.on(dir.resolve("feeds.db")).settings(SETTINGS).start()) {
      t.blocking().append(Wire.append("s", Wire.block(a, "x", 0), Wire.block(b, "x", 0)));
      Census before = Census.of(t.file);

      StatusRuntimeException refused = assertThrows(StatusRuntimeException.class,
          () -> t.blocking().append(Wire.append("s", Wire.block(a, "x", 1), Wire.block(c, "x", 0),
              Wire.block(d, "x", 0))));

      assertEquals(Status.Code.RESOURCE_EXHAUSTED, refused.getStatus().getCode());
      assertEquals("feeds-per-space limit is 3, space 's' with the feeds this append creates has 4"
          + " (raise the feeds-per-space setting or send less)", refused.getStatus().getDescription());
      assertEquals("", Census.of(t.file).changesSince(before));
      assertEquals(List.of(3L, 4L), t.blocking().append(Wire.append("s", Wire.block(a, "x", 1),
          Wire.block(c, "x", 0))).getPositionsList());
      assertEquals(List.of(5L), t.blocking().append(Wire.append("s", Wire.block(b, "x", 1))).getPositionsList());
      assertEquals(List.of(1L, 2L, 3L), t.blocking().append(Wire.append("t", Wire.block(a, "x", 0),
          Wire.block(b, "x", 0), Wire.block(c, "x", 0))).getPositionsList(), "another space counts its own");
    }

    try (TestServer t = TestServer.on(dir.resolve("feeds.db")).settings(SETTINGS).start()) {
      StatusRuntimeException afterRestart = assertThrows(StatusRuntimeException.class,
          () -> t.blocking().append(Wire.append("s", Wire.block(d, "x", 0))));
      assertEquals(Status.Code.RESOURCE_EXHAUSTED, afterRestart.getStatus().getCode());
      assertEquals(List.of(6L), t.blocking().append(Wire.append("s", Wire.block(c, "x", 1))).getPositionsList());
    }
  }

  @Test
  void aFirstAppendCreatingTooManyFeedsDoesNotCreateTheSpace() {
    try (TestServer t = TestServer.on(dir.resolve("feeds.db")).settings(SETTINGS).start()) {
      Census before = Census.of(t.file);

      StatusRuntimeException refused = assertThrows(StatusRuntimeException.class,
          () -> t.blocking().append(Wire.append("new", Wire.block(TestBlocks.feedId(), "x", 0),
              Wire.block(TestBlocks.feedId(), "x", 0), Wire.block(TestBlocks.feedId(), "x", 0),
              Wire.block(TestBlocks.feedId(), "x", 0))));

      assertEquals(Status.Code.RESOURCE_EXHAUSTED, refused.getStatus().getCode());
      assertEquals("", Census.of(t.file).changesSince(before));
    }
  }
}
