package dev.feedstore.server.internal.monitoring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.server.internal.grpc.TransportLog;
import dev.feedstore.server.testing.TestClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.AbstractLogger;
import org.slf4j.helpers.MessageFormatter;

class RateLimitedLogTest {
  final TestClock clock = new TestClock();
  final RecordingLogger logger = new RecordingLogger();

  @Test
  void atMostTheBudgetIsLoggedPerMinuteAndTheRestIsCountedOnce() {
    RateLimitedLog log = new RateLimitedLog(logger, Level.WARN, "rejected requests", clock, 3);

    for (int i = 0; i < 1000; i++) {
      log.log("rejected " + i, null);
    }
    assertEquals(List.of("rejected 0", "rejected 1", "rejected 2"), logger.lines);
    assertEquals(997, log.suppressed());

    clock.advance(Duration.ofSeconds(61));
    log.flush();

    assertEquals(4, logger.lines.size());
    assertEquals("997 more rejected requests were not logged in the last minute (at most 3 per minute are)",
        logger.lines.get(3));
    log.log("rejected again", null);
    assertEquals("rejected again", logger.lines.get(4));
  }

  @Test
  void controlCharactersOfClientTextAreEscaped() {
    RateLimitedLog log = new RateLimitedLog(logger, Level.WARN, "rejected requests", clock, 3);

    log.log("space 'a\nFAKE LINE'", null);

    assertTrue(logger.lines.get(0).contains("a\\u000aFAKE LINE"), logger.lines.get(0));
  }

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

  /** Keeps what is logged at WARN. */
  static final class RecordingLogger extends AbstractLogger {
    private static final long serialVersionUID = 1L;
    final List<String> lines = new ArrayList<>();

    @Override
    protected String getFullyQualifiedCallerName() {
      return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] args,
        Throwable throwable) {
      lines.add(MessageFormatter.basicArrayFormat(pattern, args));
    }

    @Override
    public boolean isTraceEnabled() {
      return false;
    }

    @Override
    public boolean isTraceEnabled(Marker marker) {
      return false;
    }

    @Override
    public boolean isDebugEnabled() {
      return false;
    }

    @Override
    public boolean isDebugEnabled(Marker marker) {
      return false;
    }

    @Override
    public boolean isInfoEnabled() {
      return true;
    }

    @Override
    public boolean isInfoEnabled(Marker marker) {
      return true;
    }

    @Override
    public boolean isWarnEnabled() {
      return true;
    }

    @Override
    public boolean isWarnEnabled(Marker marker) {
      return true;
    }

    @Override
    public boolean isErrorEnabled() {
      return true;
    }

    @Override
    public boolean isErrorEnabled(Marker marker) {
      return true;
    }
  }
}
