package dev.feedstore.server.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when a test advances it. Thread-safe. */
public final class TestClock extends Clock {
  private final AtomicLong millis;

  public TestClock(Instant start) {
    this.millis = new AtomicLong(start.toEpochMilli());
  }

  public TestClock() {
    this(Instant.parse("2026-03-01T00:00:00Z"));
  }

  public void advance(Duration by) {
    millis.addAndGet(by.toMillis());
  }

  /** Sets the clock, backwards too (a clock stepped back by a time sync). */
  public void set(Instant now) {
    millis.set(now.toEpochMilli());
  }

  @Override
  public long millis() {
    return millis.get();
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis.get());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
