package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.server.testing.BadText;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.testing.CapturedErr;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A rejected request is logged in one short line, whatever the size of the fields it carried. */
class RejectionLogTest {
  @TempDir Path dir;

  @Test
  void hugeFieldsOfARejectedRequestAreClippedInItsLogLine() {
    try (TestServer t = TestServer.on(dir.resolve("feeds.db")).loopback().start();
         CapturedErr err = new CapturedErr()) {
      StatusRuntimeException badSpace = assertThrows(StatusRuntimeException.class,
          () -> t.blocking().append(Wire.append(BadText.HUGE.value(), Wire.block(TestBlocks.feedId(), "a", 0))));
      StatusRuntimeException badRequestId = assertThrows(StatusRuntimeException.class, () -> t.blocking().query(
          QueryRequest.newBuilder().setSpaceId("s").setRequestId(BadText.HUGE.value()).build()));

      assertEquals(Status.Code.INVALID_ARGUMENT, badSpace.getStatus().getCode());
      assertEquals(Status.Code.INVALID_ARGUMENT, badRequestId.getStatus().getCode());
      String log = err.text();
      assertTrue(log.length() < 2_000, "two short lines, not " + log.length() + " characters");
      assertTrue(log.contains("rejected Append from /127.0.0.1:"), log);
      assertTrue(log.contains("(space '" + "x".repeat(64) + "... (10000000 chars)'"), log);
      assertTrue(log.contains("rejected Query from /127.0.0.1:"), log);
      assertTrue(log.contains("request_id '" + "x".repeat(64) + "... (10000000 chars)'"), log);
    }
  }
}
