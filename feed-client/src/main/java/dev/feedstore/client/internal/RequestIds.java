package dev.feedstore.client.internal;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/** Request ids that are unique per process and readable in server logs: a random prefix and a counter. */
public final class RequestIds {
  private static final String PREFIX = Long.toString(ThreadLocalRandom.current().nextLong() >>> 16, 36);
  private static final AtomicLong COUNTER = new AtomicLong();

  private RequestIds() {}

  public static String next() {
    return PREFIX + "-" + COUNTER.incrementAndGet();
  }
}
