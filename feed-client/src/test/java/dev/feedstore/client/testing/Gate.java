package dev.feedstore.client.testing;

import dev.feedstore.testing.Await;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * Holds the threads that {@link #pass} it until the test {@link #open}s it, and tells the test when
 * one is held, so that a test puts another thread in a known place without timing it. Thread-safe.
 */
public final class Gate {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private final CountDownLatch held = new CountDownLatch(1);
  private final CountDownLatch open = new CountDownLatch(1);

  /** Waits until the gate is open; fails the calling thread after 30 s. */
  public void pass() {
    held.countDown();
    Await.open("the gate opens", WAIT, open);
  }

  /** Waits until a thread is held at the gate. */
  public void awaitHeld() {
    Await.open("a thread is held at the gate", WAIT, held);
  }

  public void open() {
    open.countDown();
  }
}
