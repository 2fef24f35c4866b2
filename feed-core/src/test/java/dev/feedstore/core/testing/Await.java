package dev.feedstore.core.testing;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Waits for a condition with a deadline, never for a fixed time. */
public final class Await {
  private Await() {}

  /** Polls {@code condition} until it holds; fails naming {@code what} after {@code timeout}. */
  public static void until(String what, Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeout + " waiting until " + what);
      }
      LockSupport.parkNanos(1_000_000);
    }
  }

  public static void until(String what, BooleanSupplier condition) {
    until(what, Duration.ofSeconds(30), condition);
  }
}
