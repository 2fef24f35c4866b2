package dev.feedstore.testing;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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

  /**
   * Waits until {@code latch} is open (for threads a test holds on it); fails naming {@code what}
   * after {@code timeout}, or when interrupted.
   */
  public static void open(String what, Duration timeout, CountDownLatch latch) {
    try {
      if (!latch.await(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
        throw new AssertionError("timed out after " + timeout + " waiting until " + what);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted waiting until " + what, e);
    }
  }
}
