package dev.feedstore.server.internal.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import dev.feedstore.server.internal.monitoring.RecordingLogger;
import dev.feedstore.server.testing.TestClock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

class TransportLogTest {
  final TestClock clock = new TestClock();
  final RecordingLogger logger = new RecordingLogger();

  @Test
  void theTransportsRefusedMessagesBecomeOneLineRejections() {
    TransportLog handler = new TransportLog(new RateLimitedLog(logger, Level.WARN, "refused messages", clock, 1));
    java.util.logging.LogRecord record = new java.util.logging.LogRecord(java.util.logging.Level.WARNING,
        "Exception processing message");
    record.setThrown(new RuntimeException("RESOURCE_EXHAUSTED: gRPC message exceeds maximum size 2000: 2844"));

    handler.publish(record);
    handler.publish(record);

    assertEquals(List.of("refused a message from a client: RESOURCE_EXHAUSTED: gRPC message exceeds maximum size"
        + " 2000: 2844 (the limit is --max-message-bytes when it is the size)"), logger.lines);
  }
}
