package dev.feedstore.client.internal;

import dev.feedstore.client.SyncStatus;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.sync.AuthorityException;
import dev.feedstore.core.sync.PullPage;
import dev.feedstore.core.sync.PullRequest;
import dev.feedstore.core.sync.PullTicket;
import dev.feedstore.core.sync.SpaceSync;
import dev.feedstore.core.sync.SyncStep;
import dev.feedstore.proto.v1.WatchEvent;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connection loop of a sync session, on one thread: for every replicated space it pushes what
 * is unpositioned, catches up with Query pages, then holds a Watch stream for live blocks; it
 * applies each Watch event before asking for the next; and when the authority cannot be reached it
 * backs off (exponentially, with jitter) and tries again. All sync state changes go through {@link
 * SpaceSync}, so push and pull never interleave. Only its own thread touches its fields, except
 * the signal queue and {@link #stop}.
 *
 * <p>While catching up, the Query for the next page is sent (on a helper thread) while the current
 * page is applied; its answer is used only if the next ticket asks exactly what it asked,
 * otherwise it is dropped. A live event that only added blocks (the stream was caught up and the
 * pull was applied as it came) changes neither what is left to push nor the status, so it is not
 * followed by a push round and a status refresh; everything else is.
 */
public final class SessionLoop implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(SessionLoop.class);
  /** A cap on push rounds per cycle, so one space cannot starve the others. */
  private static final int MAX_PUSH_ROUNDS = 64;

  private sealed interface Signal permits Wake, Rescope, Event, Closed, Stop {}

  private record Wake() implements Signal {}

  private record Rescope(SpaceId space) implements Signal {}

  private record Event(SpaceId space, WatchStream stream, WatchEvent event) implements Signal {}

  private record Closed(SpaceId space, WatchStream stream, Status status) implements Signal {}

  private record Stop() implements Signal {}

  /** A live Watch stream of one space. */
  private static final class Live {
    WatchStream stream;
    PullTicket ticket;
    boolean first = true;
    boolean caughtUp;
  }

  private final GrpcAuthority authority;
  private final Function<SpaceId, SpaceSync> syncs;
  private final Supplier<Set<SpaceId>> spaces;
  private final StatusTracker status;
  private final Backoff backoff;
  private final Duration idlePoll;
  private final BlockingQueue<Signal> signals = new LinkedBlockingQueue<>();
  private final Map<SpaceId, Live> live = new HashMap<>();
  /**
   * The replicated spaces as last read; null when they must be read again (at start, after a
   * policy change, when idle, after a failure), so that a cycle woken by an append does not read
   * them again.
   */
  private Set<SpaceId> replicated;
  private final ExecutorService prefetcher = Executors.newSingleThreadExecutor(r -> {
    Thread thread = new Thread(r, "feedstore-sync-prefetch");
    thread.setDaemon(true);
    return thread;
  });
  private volatile boolean stopped;

  public SessionLoop(GrpcAuthority authority, Function<SpaceId, SpaceSync> syncs, Supplier<Set<SpaceId>> spaces,
      StatusTracker status, Backoff backoff, Duration idlePoll) {
    this.authority = authority;
    this.syncs = syncs;
    this.spaces = spaces;
    this.status = status;
    this.backoff = backoff;
    this.idlePoll = idlePoll;
  }

  /** Something local changed (an append): push soon. */
  public void wake() {
    status.changed();
    signals.add(new Wake());
  }

  /** The replication policies of {@code space} changed: restart its live stream with the new scope. */
  public void rescope(SpaceId space) {
    status.changed();
    signals.add(new Rescope(space));
  }

  /** Asks the loop to end; it cancels its streams on the way out. */
  public void stop() {
    stopped = true;
    signals.add(new Stop());
  }

  @Override
  public void run() {
    try {
      boolean due = true;
      while (!stopped) {
        try {
          if (due) {
            cycle();
            backoff.reset();
            due = false;
          }
          Signal signal = signals.poll(idlePoll.toMillis(), TimeUnit.MILLISECONDS);
          if (signal == null) {
            due = true; // idle: look for work nobody told about
            replicated = null;
          }
          while (signal != null && !stopped) {
            due |= handle(signal);
            signal = signals.poll();
          }
        } catch (AuthorityException | StatusRuntimeException e) {
          due = true;
          replicated = null;
          failed(e);
        } catch (RuntimeException e) {
          due = true;
          replicated = null;
          log.error("sync failed unexpectedly; retrying after a pause", e);
          failed(e);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      closeAllStreams();
      prefetcher.shutdownNow();
    }
  }

  private Set<SpaceId> replicated() {
    if (replicated == null) {
      replicated = spaces.get();
    }
    return replicated;
  }

  private void cycle() {
    long version = status.version();
    Set<SpaceId> replicated = replicated();
    for (SpaceId space : live.keySet().stream().filter(s -> !replicated.contains(s)).toList()) {
      closeStream(space);
    }
    for (SpaceId space : replicated) {
      SpaceSync sync = syncs.apply(space);
      pushAll(sync);
      if (!live.containsKey(space)) {
        catchUpAndWatch(sync);
        pushAll(sync);
      }
    }
    refreshStatus(replicated, version, Optional.empty());
  }

  private void pushAll(SpaceSync sync) {
    for (int round = 0; round < MAX_PUSH_ROUNDS; round++) {
      SyncStep step = sync.pushStep(authority);
      logStep(sync.space(), step);
      if (step.kind() == SyncStep.Kind.IDLE) {
        return;
      }
      if (step.restarted()) {
        closeStream(sync.space());
      }
    }
    wake();
  }

  private void catchUpAndWatch(SpaceSync sync) {
    Prefetch prefetch = null;
    while (!stopped) {
      Optional<PullTicket> ticket = sync.beginPull();
      if (ticket.isEmpty()) {
        return;
      }
      PullRequest request = ticket.get().request();
      PullPage page = prefetch != null && prefetch.request().equals(request)
          ? prefetch.page().orElseGet(() -> authority.pull(request))
          : authority.pull(request);
      prefetch = next(request, page);
      SpaceSync.PullResult result = sync.applyPull(ticket.get(), page);
      logStep(sync.space(), result.step());
      if (result.step().kind() == SyncStep.Kind.PULLED && page.complete()) {
        openStream(sync.space(), result.next().orElseThrow());
        return;
      }
    }
  }

  /** A Query sent ahead for the page after one being applied. */
  private record Prefetch(PullRequest request, Future<PullPage> answer) {
    /** The answer, or empty if the Query failed (the caller asks again and sees the failure itself). */
    Optional<PullPage> page() {
      try {
        return Optional.of(answer.get());
      } catch (ExecutionException e) {
        return Optional.empty();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Optional.empty();
      }
    }
  }

  /**
   * Sends ahead the Query that follows {@code page} if there is more: the request the next ticket
   * makes once the page is applied as expected (the cursor on its last block, the token it carries).
   */
  private Prefetch next(PullRequest request, PullPage page) {
    if (page.complete() || page.blocks().isEmpty()) {
      return null;
    }
    PullRequest next = new PullRequest(request.spaceId(), request.scope(),
        page.blocks().get(page.blocks().size() - 1).position(), request.limit(), Optional.of(page.serverToken()));
    try {
      return new Prefetch(next, prefetcher.submit(() -> authority.pull(next)));
    } catch (RejectedExecutionException e) {
      return null; // stopping
    }
  }

  private void openStream(SpaceId space, PullTicket ticket) {
    Live stream = new Live();
    stream.ticket = ticket;
    live.put(space, stream);
    stream.stream = authority.watch(ticket.request(), new WatchStream.Handler() {
      @Override
      public void onEvent(WatchStream source, WatchEvent event) {
        signals.add(new Event(space, source, event));
      }

      @Override
      public void onClose(WatchStream source, Status closeStatus) {
        signals.add(new Closed(space, source, closeStatus));
      }
    });
  }

  /** Handles one signal; returns whether a push round and a status refresh are due after it. */
  private boolean handle(Signal signal) {
    if (signal instanceof Event event) {
      Live stream = live.get(event.space());
      if (stream == null || stream.stream != event.stream()) {
        return false;
      }
      SpaceSync sync = syncs.apply(event.space());
      PullPage page = WirePages.of(event.event(), stream.first);
      stream.first = false;
      SpaceSync.PullResult result = sync.applyPull(stream.ticket, page);
      logStep(event.space(), result.step());
      if (result.step().kind() == SyncStep.Kind.PULLED) {
        // Outside a replay (a live stream opens only once one is over) a pull that was applied as
        // it came only adds blocks: nothing new to push, and a caught-up stream stays caught up.
        boolean wasCaughtUp = stream.caughtUp;
        stream.ticket = result.next().orElseThrow();
        stream.caughtUp |= page.complete();
        stream.stream.requestNext();
        return !wasCaughtUp;
      }
      closeStream(event.space());
      return true;
    } else if (signal instanceof Closed closed) {
      Live stream = live.get(closed.space());
      if (stream != null && stream.stream == closed.stream()) {
        live.remove(closed.space());
        if (closed.status().getCode() != Status.Code.CANCELLED) {
          log.info("watch of {} ended: {}", closed.space(), closed.status());
        }
        if (closed.status().getCode() == Status.Code.UNAVAILABLE) {
          throw new AuthorityException("the authority closed the live stream: " + closed.status(), true, null);
        }
      }
    } else if (signal instanceof Rescope rescope) {
      replicated = null;
      closeStream(rescope.space());
    }
    return true;
  }

  private void failed(RuntimeException e) throws InterruptedException {
    closeAllStreams();
    refreshStatus(Optional.of(e.getMessage() == null ? e.toString() : e.getMessage()));
    Duration delay = backoff.next();
    authority.resetConnectBackoff();
    log.debug("authority unreachable ({}); next attempt in {} ms", e.getMessage(), delay.toMillis());
    long deadline = System.nanoTime() + delay.toNanos();
    while (!stopped) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return;
      }
      Signal signal = signals.poll(left, TimeUnit.NANOSECONDS);
      if (signal instanceof Stop) {
        return;
      }
    }
  }

  private void refreshStatus(Optional<String> error) {
    long version = status.version();
    refreshStatus(spaces.get(), version, error);
  }

  /**
   * Computes the status from the replicated spaces; {@code version} must have been read before
   * {@code replicated} and before anything the cycle did, so that a local change made meanwhile
   * keeps the status from turning synced.
   */
  private void refreshStatus(Set<SpaceId> replicated, long version, Optional<String> error) {
    long toPush = 0;
    long toPull = 0;
    boolean synced = error.isEmpty();
    for (SpaceId space : replicated) {
      SpaceSync sync = syncs.apply(space);
      long pending = sync.pendingPush();
      Live stream = live.get(space);
      boolean caughtUp = stream != null && stream.caughtUp;
      toPush += pending;
      toPull += caughtUp ? 0 : sync.pendingPullBound();
      synced &= pending == 0 && caughtUp && !sync.state().isReplaying();
    }
    SyncStatus.State state = error.isPresent()
        ? SyncStatus.State.OFFLINE
        : synced ? SyncStatus.State.SYNCED : SyncStatus.State.SYNCING;
    status.set(new SyncStatus(state, toPush, toPull, error), version);
  }

  private void closeStream(SpaceId space) {
    Live stream = live.remove(space);
    if (stream != null && stream.stream != null) {
      stream.stream.cancel();
    }
  }

  private void closeAllStreams() {
    for (SpaceId space : Set.copyOf(live.keySet())) {
      closeStream(space);
    }
  }

  private static void logStep(SpaceId space, SyncStep step) {
    if (step.restarted() || step.kind() == SyncStep.Kind.REKEYED) {
      log.warn("sync of {}: {}", space, step.detail());
    } else if (log.isDebugEnabled() && step.kind() != SyncStep.Kind.IDLE) {
      log.debug("sync of {}: {}", space, step.detail());
    }
  }
}
