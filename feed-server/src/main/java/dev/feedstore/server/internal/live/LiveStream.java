package dev.feedstore.server.internal.live;

import dev.feedstore.server.internal.errors.CallRefusal;
import dev.feedstore.server.internal.errors.ShuttingDownException;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How every live stream sends, whatever it sends (a scope's blocks, a live query's changes) and
 * whatever its transport: with no queue of its own, one event at a time from its {@link Source}, in
 * one serialized drain on the live executor ({@link SerialDrain}), never a thread per stream, and only
 * while its {@link StreamSink} says the transport is ready, so a reader that stops reading costs one
 * event at most and resumes where its source stands when it reads again.
 *
 * <ul>
 *   <li>A {@link #signal} (something new to send) does not wake a stream whose transport was not
 *       ready when its drain last looked: the transport's ready hook does, and the drain then sends
 *       what came meanwhile.
 *   <li>The drain takes turns with other streams: after {@link #EVENTS_PER_TURN} events it queues
 *       itself again on the executor, so that a stream far behind does not hold a runner until it has
 *       caught up.
 *   <li>While the source has nothing to send, a heartbeat goes out when a whole heartbeat interval
 *       passed with nothing sent ({@link #heartbeatTick}).
 *   <li>The stream ends once: with the first reason {@link #end} was given, or the first failure of
 *       its drain (logged unless the request caused it); the sink's end is its last call. It is then
 *       released once ({@code onRelease}), as it is when its client goes away.
 * </ul>
 *
 * <p>Thread-safe. The source's methods run in the drain only; the others may be called from any
 * thread.
 */
public final class LiveStream {
  /** Events sent in one turn before the drain yields its thread to other streams. */
  static final int EVENTS_PER_TURN = 8;

  /** What a stream sends, from its drain only. */
  public interface Source {
    /**
     * Sends the next event if one is due; false when nothing is due now (a {@link #signal}, the
     * ready hook or a heartbeat tick brings the drain back). An event other than a heartbeat calls
     * {@link #sent}.
     */
    boolean sendNext();

    /** A heartbeat interval passed with nothing sent and nothing due: sends a heartbeat, if the stream sends them yet. */
    void heartbeat();
  }

  private final StreamSink sink;
  private final Source source;
  private final RateLimitedLog failures;
  private final String name;
  private final Runnable onRelease;
  /**
   * The serialized drain. An executor that takes no more work (the server is stopping) ends the
   * stream on the scheduling thread, since no drain runs or will.
   */
  private final SerialDrain drain;
  private final AtomicBoolean released = new AtomicBoolean();
  private volatile RuntimeException ending;
  /** Heartbeat ticks not yet handled by the drain. */
  private final AtomicInteger ticks = new AtomicInteger();
  /**
   * Set by the drain when the sink was not ready, cleared by the sink's ready hook and by a drain
   * that finds it ready: while set, signals do not wake the drain, which would find the sink not
   * ready again; the ready hook wakes it instead.
   */
  private volatile boolean awaitingReady;
  /** Confined to the drain: an event other than a heartbeat was sent since the last tick. */
  private boolean sentSinceHeartbeat;

  /**
   * @param name what the stream is, for the log of a failure ({@code live stream of space s for ana})
   * @param onRelease gives back what the stream holds; runs once, on the thread that releases it
   */
  public LiveStream(StreamSink sink, Source source, Executor executor, RateLimitedLog failures, String name,
      Runnable onRelease) {
    this.sink = sink;
    this.source = source;
    this.failures = failures;
    this.name = name;
    this.onRelease = onRelease;
    this.drain = new SerialDrain(executor, this::turn, () -> {
      RuntimeException end = ending;
      finish(end != null ? end : new ShuttingDownException());
    });
  }

  /**
   * Hooks the stream to its sink; call before {@link #schedule}. A client that leaves meanwhile
   * leaves the stream released; when hooking fails, the stream is released and the failure rethrown.
   */
  public void hook() {
    try {
      sink.start(this::ready, this::release);
    } catch (RuntimeException | Error e) {
      release();
      throw e;
    }
  }

  /** Runs the drain once more, now or after the turn running. */
  public void schedule() {
    drain.schedule();
  }

  /**
   * Something new is due: schedules the drain, unless the sink was not ready when the drain last
   * looked (its ready hook schedules the drain, which then sends this too).
   */
  public void signal() {
    if (!awaitingReady) {
      drain.schedule();
    }
  }

  /**
   * {@link #signal}s every stream of {@code streams}, handing the drains to wake to their executor
   * together ({@link SerialDrain#scheduleAll}): what a commit does to the streams it concerns.
   */
  public static void signalAll(List<LiveStream> streams) {
    List<SerialDrain> drains = new ArrayList<>(streams.size());
    for (LiveStream stream : streams) {
      if (!stream.awaitingReady) {
        drains.add(stream.drain);
      }
    }
    SerialDrain.scheduleAll(drains);
  }

  /** Ends the stream because of {@code reason} (the first ending wins), from any thread. */
  public void end(RuntimeException reason) {
    if (ending == null) {
      ending = reason;
    }
    drain.schedule();
  }

  /** A heartbeat interval passed: a heartbeat goes out if the stream is idle and sent nothing since. */
  public void heartbeatTick() {
    ticks.incrementAndGet();
    drain.schedule();
  }

  /** An event other than a heartbeat was sent: the next heartbeat waits a whole interval. Drain only. */
  public void sent() {
    sentSinceHeartbeat = true;
  }

  /** True once the stream was released: it sends nothing more. */
  public boolean released() {
    return released.get();
  }

  /** The sink's transport takes events again. */
  private void ready() {
    awaitingReady = false;
    drain.schedule();
  }

  /**
   * One turn: up to {@link #EVENTS_PER_TURN} sends; true when more may be due. A failure ends the
   * stream; an {@code Error} ends and releases it too, and is rethrown (the drain stays raised, so
   * it is never run again).
   */
  private boolean turn() {
    try {
      for (int i = 0; i < EVENTS_PER_TURN; i++) {
        if (released.get()) {
          return false;
        }
        RuntimeException end = ending;
        if (end != null) {
          finish(end);
          return false;
        }
        if (!sink.isReady()) {
          // The ready hook schedules the drain again; had it run before this flag was set, its
          // schedule made this drain run once more, which clears the flag below.
          awaitingReady = true;
          return false;
        }
        awaitingReady = false;
        if (!source.sendNext()) {
          idle();
          return false; // the next signal comes back
        }
      }
      return true; // more may be due: come back after other streams had a turn
    } catch (RuntimeException e) {
      fail(e);
      return false;
    } catch (Error e) {
      fail(new IllegalStateException(name + " failed: " + e, e));
      throw e;
    }
  }

  /** Nothing is due: a heartbeat when a whole interval had nothing sent. */
  private void idle() {
    int elapsed = ticks.getAndSet(0);
    if (elapsed > 0) {
      // Idle for a whole interval: nothing sent since the previous tick, or several ticks passed
      // before this drain ran (then at least one whole interval had nothing sent).
      if (elapsed > 1 || !sentSinceHeartbeat) {
        source.heartbeat();
      }
      sentSinceHeartbeat = false;
    }
  }

  private void fail(RuntimeException failure) {
    if (released.get()) {
      return; // the client went away while it was sent to: nothing to report to
    }
    if (!CallRefusal.of(failure).code().byRequest()) {
      failures.log(name + " failed", failure);
    }
    finish(failure);
  }

  private void finish(RuntimeException reason) {
    try {
      sink.end(reason);
    } catch (RuntimeException e) {
      // The client went away meanwhile; there is no one left to tell.
    } finally {
      release();
    }
  }

  /** Gives back what the stream holds; idempotent. */
  public void release() {
    if (released.compareAndSet(false, true)) {
      onRelease.run();
    }
  }
}
