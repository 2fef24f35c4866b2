package dev.feedstore.examples;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/** Waits for a condition until a deadline, checking it every 20 ms. Stateless. */
public final class Deadline {
  private Deadline() {}

  /**
   * Returns when {@code condition} holds.
   *
   * @throws TimeoutException naming {@code what} if it does not hold within {@code timeout}
   */
  public static void await(String what, Duration timeout, BooleanSupplier condition)
      throws TimeoutException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new TimeoutException("not within " + timeout.toSeconds() + " s: " + what);
      }
      Thread.sleep(20);
    }
  }
}
