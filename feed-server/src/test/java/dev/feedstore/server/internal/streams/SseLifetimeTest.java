package dev.feedstore.server.internal.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** An event stream's lifetime is streams-sse-ms within 20 % either way. */
class SseLifetimeTest {
  @Test
  void aLifetimeIsTheSettingWithinTwentyPercentEitherWay() {
    assertEquals(48_000, SseLifetime.millis(60_000, 0));
    assertEquals(60_000, SseLifetime.millis(60_000, 0.5));
    assertEquals(72_000, SseLifetime.millis(60_000, Math.nextDown(1.0)));
  }

  @Test
  void aLifetimeIsNeverZero() {
    assertEquals(1, SseLifetime.millis(1, 0));
  }

  @Test
  void aDrawOutsideTheUnitIntervalIsRefused() {
    assertEquals("random must be in [0, 1), was 1.0",
        assertThrows(IllegalArgumentException.class, () -> SseLifetime.millis(60_000, 1)).getMessage());
  }
}
