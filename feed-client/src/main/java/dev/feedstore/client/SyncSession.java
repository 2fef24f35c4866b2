package dev.feedstore.client;

import dev.feedstore.client.internal.SessionLoop;
import dev.feedstore.client.internal.StatusTracker;
import dev.feedstore.core.SpaceId;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A replica's connection to a position authority, made by {@link Replica#connect}. While open it
 * pushes local blocks, pulls and watches the replicated feeds, and reconnects with jittered
 * exponential backoff when the authority goes away; its {@link #status()} says truthfully where it
 * stands. Runs on one background thread of its own. Closing it stops that thread; it does not
 * shut down the channel, which belongs to the caller. Thread-safe.
 */
public final class SyncSession implements AutoCloseable {

  /**
   * Settings of a session.
   *
   * @param callDeadline the deadline of each unary call to the authority
   * @param backoffInitial the first delay after a failure
   * @param backoffMax the longest delay between attempts
   * @param subscriptionTtl the TTL of subscriptions the session makes for wide scopes
   * @param idlePoll how often an idle session checks for work it was not told about
   */
  public record Options(
      Duration callDeadline, Duration backoffInitial, Duration backoffMax, Duration subscriptionTtl, Duration idlePoll) {
    public static final Options DEFAULTS = new Options(
        Duration.ofSeconds(30), Duration.ofMillis(200), Duration.ofSeconds(30), Duration.ofHours(1), Duration.ofSeconds(5));

    public Options {
      Objects.requireNonNull(callDeadline, "callDeadline");
      Objects.requireNonNull(backoffInitial, "backoffInitial");
      Objects.requireNonNull(backoffMax, "backoffMax");
      Objects.requireNonNull(subscriptionTtl, "subscriptionTtl");
      Objects.requireNonNull(idlePoll, "idlePoll");
    }

    public Options withBackoff(Duration initial, Duration max) {
      return new Options(callDeadline, initial, max, subscriptionTtl, idlePoll);
    }

    public Options withCallDeadline(Duration value) {
      return new Options(value, backoffInitial, backoffMax, subscriptionTtl, idlePoll);
    }
  }

  private final SessionLoop loop;
  private final StatusTracker status;
  private final Thread thread;
  private final Runnable onClose;

  SyncSession(SessionLoop loop, StatusTracker status, Runnable onClose) {
    this.loop = loop;
    this.status = status;
    this.onClose = onClose;
    this.thread = new Thread(loop, "feedstore-sync");
    this.thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  /** Where sync stands now. */
  public SyncStatus status() {
    return status.current();
  }

  /**
   * Waits until the status is {@link SyncStatus.State#SYNCED}.
   *
   * @return false if {@code timeout} passed first
   */
  public boolean awaitSynced(Duration timeout) throws InterruptedException {
    return status.awaitSynced(timeout);
  }

  /** Calls {@code listener} with the current status, then on every change (on the sync thread). */
  public Registration onStatus(Consumer<SyncStatus> listener) {
    return status.listen(listener);
  }

  void wake() {
    loop.wake();
  }

  void rescope(SpaceId space) {
    loop.rescope(space);
  }

  /** Stops syncing; waits up to ten seconds for the sync thread to end. Idempotent. */
  @Override
  public void close() {
    loop.stop();
    try {
      thread.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    onClose.run();
  }
}
