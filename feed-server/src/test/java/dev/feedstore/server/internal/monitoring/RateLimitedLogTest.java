package dev.feedstore.server.internal.monitoring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.server.testing.TestClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

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
}
