package dev.feedstore.client;

import dev.feedstore.client.internal.SessionLoop;
import dev.feedstore.client.internal.StatusTracker;
import dev.feedstore.core.SpaceId;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A replica's connection to a position authority, made by {@link Replica#connect}. While open it
 * pushes local blocks, pulls and watches the replicated feeds, and reconnects with jittered
 * exponential backoff when the authority goes away; its {@link #status()} says truthfully where it
 * stands: offline, refused (and what), a local storage fault, syncing or synced. Requests are sized
 * by the authority's limits, asked for on every connect. Runs on one background thread of its own.
 * Closing it stops that thread; it shuts down the channel only if {@link
 * Replica#connect(String, ConnectOptions)} made it, never a channel the caller gave. Thread-safe.
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
   * @param refusalRetry how long something the authority refused (see {@link Refusal}) waits before
   *     it is tried again, unless the session reconnects or its token changes first
   */
  public record Options(Duration callDeadline, Duration backoffInitial, Duration backoffMax, Duration subscriptionTtl,
      Duration idlePoll, Duration refusalRetry) {
    /** Two minutes: a refusal lasts until an operator or the application changes something. */
    public static final Duration DEFAULT_REFUSAL_RETRY = Duration.ofMinutes(2);
    /** Calls of 30 s, reconnection backoff from 200 ms to 30 s, subscriptions of an hour, idle polls every 5 s. */
    public static final Options DEFAULTS = new Options(Duration.ofSeconds(30), Duration.ofMillis(200),
        Duration.ofSeconds(30), Duration.ofHours(1), Duration.ofSeconds(5), DEFAULT_REFUSAL_RETRY);

    /** Checks that every duration is given and that the refusal retry is positive. */
    public Options {
      Objects.requireNonNull(callDeadline, "callDeadline");
      Objects.requireNonNull(backoffInitial, "backoffInitial");
      Objects.requireNonNull(backoffMax, "backoffMax");
      Objects.requireNonNull(subscriptionTtl, "subscriptionTtl");
      Objects.requireNonNull(idlePoll, "idlePoll");
      Objects.requireNonNull(refusalRetry, "refusalRetry");
      if (refusalRetry.isNegative() || refusalRetry.isZero()) {
        throw new IllegalArgumentException("refusalRetry must be > 0, was " + refusalRetry);
      }
    }

    /** These options with reconnection waits from {@code initial} growing to {@code max}. */
    public Options withBackoff(Duration initial, Duration max) {
      return new Options(callDeadline, initial, max, subscriptionTtl, idlePoll, refusalRetry);
    }

    /** These options with {@code value} as every call's deadline. */
    public Options withCallDeadline(Duration value) {
      return new Options(value, backoffInitial, backoffMax, subscriptionTtl, idlePoll, refusalRetry);
    }

    /** These options with a refusal tried again after {@code value}. */
    public Options withRefusalRetry(Duration value) {
      return new Options(callDeadline, backoffInitial, backoffMax, subscriptionTtl, idlePoll, value);
    }
  }

  private final SessionLoop loop;
  private final StatusTracker status;
  private final Thread thread;
  private final Runnable onClose;
  private final Supplier<Optional<ServerInfo>> serverInfo;

  SyncSession(SessionLoop loop, StatusTracker status, Supplier<Optional<ServerInfo>> serverInfo, Runnable onClose) {
    this.loop = loop;
    this.status = status;
    this.serverInfo = serverInfo;
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
   * What the authority said about itself (version and limits) when the session last connected;
   * empty before that, or when the authority predates the question (it then gets the default
   * limits, lowered by its refusals).
   */
  public Optional<ServerInfo> serverInfo() {
    return serverInfo.get();
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
