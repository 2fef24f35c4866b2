package dev.feedstore.client.internal;

import dev.feedstore.client.HistoryGap;
import dev.feedstore.client.Refusal;
import dev.feedstore.client.SyncStatus;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.StoreException;
import dev.feedstore.core.sync.AuthorityException;
import dev.feedstore.core.sync.AuthorityLimitException;
import dev.feedstore.core.sync.CompactedHistoryException;
import dev.feedstore.core.sync.PullPage;
import dev.feedstore.core.sync.PullRequest;
import dev.feedstore.core.sync.PullTicket;
import dev.feedstore.core.sync.SpaceSync;
import dev.feedstore.core.sync.SyncStep;
import dev.feedstore.proto.v1.WatchEvent;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
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
 * <p>The authority's limits are asked for (GetServerInfo) at the start and after every reconnect,
 * and every request is sized by them. A refusal (the authority answered, but no) holds back what it
 * refused, a space's pushes or pulls, or the whole session when the credentials are refused, and
 * everything else keeps syncing; see {@link Refusals} for when it is tried again. A failure of the
 * replica's own store is a storage fault, logged once (not per retry) and retried with backoff.
 *
 * <p>While catching up, the Query for the next page is sent (on a helper thread) while the current
 * page is applied; its answer is used only if the next ticket asks exactly what it asked,
 * otherwise it is dropped. A live event that only added blocks (the stream was caught up and the
 * pull was applied as it came) changes neither what is left to push nor the status, so it is not
 * followed by a push round and a status refresh; everything else is.
 *
 * <p>The status is computed at the end of a cycle, but it leaves synced at once when a live stream
 * ends (the server ended it, say after its history went back, or the loop closed it to start over),
 * on the thread that learns it: the space may have to catch up or repair, and the status stays not
 * synced until a cycle that started after the end has done that and finds nothing left.
 */
public final class SessionLoop implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(SessionLoop.class);
  /** A cap on push rounds per cycle, so one space cannot starve the others. */
  private static final int MAX_PUSH_ROUNDS = 64;

  private sealed interface Signal permits Wake, Rescope, Event, Closed, Stop {}

  private record Wake() implements Signal {}

  private record Rescope(SpaceId space) implements Signal {}

  private record Event(SpaceId space, WatchStream stream, WatchEvent event) implements Signal {}

  private record Closed(SpaceId space, WatchStream stream, Status status, StatusRuntimeException failure)
      implements Signal {}

  private record Stop() implements Signal {}

  /** A live Watch stream of one space. */
  private static final class Live {
    WatchStream stream;
    PullTicket ticket;
    boolean first = true;
    boolean caughtUp;
  }

  private static final Optional<SpaceId> SESSION = Optional.empty();

  private final GrpcAuthority authority;
  private final Function<SpaceId, SpaceSync> syncs;
  private final Supplier<Set<SpaceId>> spaces;
  private final StatusTracker status;
  private final Backoff backoff;
  private final Duration idlePoll;
  private final Refusals refusals;
  private final FailureLog failures = new FailureLog(log, "sync");
  /** Whether the authority's limits are to be asked for before the next cycle (at start, after a reconnect). */
  private boolean infoDue = true;
  /** The last counts the status reported, kept while the store cannot be read. */
  private long lastToPush;
  private long lastToPull;
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

  /**
   * @param refusalRetry how long a refusal holds back what it refused before it is tried again
   * @param credentials what identifies the credentials calls carry now: when it changes, refusals are
   *     tried again at once
   */
  public SessionLoop(GrpcAuthority authority, Function<SpaceId, SpaceSync> syncs, Supplier<Set<SpaceId>> spaces,
      StatusTracker status, Backoff backoff, Duration idlePoll, Duration refusalRetry, Supplier<?> credentials) {
    this.authority = authority;
    this.syncs = syncs;
    this.spaces = spaces;
    this.status = status;
    this.backoff = backoff;
    this.idlePoll = idlePoll;
    this.refusals = new Refusals(refusalRetry, credentials, System::nanoTime);
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
            failures.recovered();
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
        } catch (StoreException e) {
          due = true;
          replicated = null;
          failures.failed("the replica's storage failed", e, false);
          failed(e, SyncStatus.State.STORAGE_FAULT);
        } catch (AuthorityException | StatusRuntimeException e) {
          due = true;
          replicated = null;
          failed(e, SyncStatus.State.OFFLINE);
        } catch (RuntimeException e) {
          due = true;
          replicated = null;
          failures.failed("sync failed unexpectedly", e, true);
          failed(e, SyncStatus.State.OFFLINE);
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
    if (!askForLimits()) {
      refreshStatus(replicated(), version, Optional.empty(), SyncStatus.State.SYNCING);
      return;
    }
    Set<SpaceId> replicated = replicated();
    for (SpaceId space : live.keySet().stream().filter(s -> !replicated.contains(s)).toList()) {
      closeStream(space);
    }
    for (SpaceId space : replicated) {
      SpaceSync sync = syncs.apply(space);
      pushAll(sync);
      if (!live.containsKey(space) && !refusals.holds(Optional.of(space), Refusal.Held.PULLS)) {
        catchUpAndWatch(sync);
        pushAll(sync);
      }
    }
    refreshStatus(replicated, version, Optional.empty(), SyncStatus.State.SYNCING);
  }

  /**
   * Asks the authority for its limits when due (at start, after a reconnect, when a refusal of the
   * session's credentials is due for a retry).
   *
   * @return false while the authority refuses the session's credentials
   */
  private boolean askForLimits() {
    if (!infoDue && !refusals.recorded(SESSION, Refusal.Held.EVERYTHING)) {
      return true;
    }
    if (refusals.holds(SESSION, Refusal.Held.EVERYTHING)) {
      return false;
    }
    try {
      authority.refreshInfo().ifPresent(info -> log.debug("authority {}: {}", info.version(), info));
    } catch (AuthorityException e) {
      if (e.retryable()) {
        throw e;
      }
      refusals.refuse(SESSION, Refusal.Held.EVERYTHING, e).ifPresent(r -> log.warn("sync: {}", r));
      return false;
    }
    infoDue = false;
    refusals.cleared(SESSION, Refusal.Held.EVERYTHING);
    return true;
  }

  private void pushAll(SpaceSync sync) {
    Optional<SpaceId> space = Optional.of(sync.space());
    if (refusals.holds(space, Refusal.Held.PUSHES)) {
      return;
    }
    for (int round = 0; round < MAX_PUSH_ROUNDS; round++) {
      List<SyncStep> steps;
      try {
        steps = sync.pushSteps(authority, authority.appendsInFlight());
      } catch (AuthorityException e) {
        if (e.retryable()) {
          throw e;
        }
        refusals.refuse(space, Refusal.Held.PUSHES, e).ifPresent(r -> log.warn("sync of {}: {}", sync.space(), r));
        return;
      }
      refusals.cleared(space, Refusal.Held.PUSHES);
      boolean restarted = false;
      for (SyncStep step : steps) {
        logStep(sync.space(), step);
        if (step.kind() == SyncStep.Kind.IDLE) {
          return;
        }
        restarted |= step.restarted();
      }
      if (restarted) {
        closeStream(sync.space());
      }
    }
    wake();
  }

  /** Catches up and opens the live stream; a refusal holds the space's pulls back instead of failing the cycle. */
  private void catchUpAndWatch(SpaceSync sync) {
    try {
      catchUpAndOpenStream(sync);
      refusals.cleared(Optional.of(sync.space()), Refusal.Held.PULLS);
    } catch (AuthorityException e) {
      if (e.retryable()) {
        throw e;
      }
      refusals.refuse(Optional.of(sync.space()), Refusal.Held.PULLS, e)
          .ifPresent(r -> log.warn("sync of {}: {}", sync.space(), r));
    }
  }

  private void catchUpAndOpenStream(SpaceSync sync) {
    Prefetch prefetch = null;
    while (!stopped) {
      Optional<PullTicket> ticket = sync.beginPull(authority.limits());
      if (ticket.isEmpty()) {
        return;
      }
      PullRequest request = ticket.get().request();
      PullPage page;
      try {
        page = prefetch != null && prefetch.request().equals(request)
            ? prefetch.page().orElseGet(() -> authority.pull(request))
            : authority.pull(request);
      } catch (AuthorityLimitException over) {
        // The limits are narrowed (or larger answers accepted): ask again at once, for less.
        log.debug("sync of {}: {}", sync.space(), over.getMessage());
        prefetch = null;
        continue;
      } catch (CompactedHistoryException compacted) {
        // Ask again from the floor: every block held is kept, the gap is reported in the status.
        logStep(sync.space(), sync.applyCompacted(ticket.get(), compacted));
        prefetch = null;
        continue;
      }
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
    if (page.complete() || page.blocks().isEmpty() || request.startTime().isPresent()) {
      return null; // a read from a start time is a probe: the next request starts from a cursor
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
      public void onClose(WatchStream source, Status closeStatus, StatusRuntimeException failure) {
        if (!stopped) {
          status.unsettled(); // at once, even while a cycle runs that counted on the stream
        }
        signals.add(new Closed(space, source, closeStatus, failure));
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
        Status.Code code = closed.status().getCode();
        if (code == Status.Code.FAILED_PRECONDITION
            && GrpcAuthority.translate(closed.failure(), "watch") instanceof CompactedHistoryException compacted) {
          // A compaction overtook the stream: resume from the floor; the cycle that follows catches up.
          logStep(closed.space(), syncs.apply(closed.space()).applyCompacted(stream.ticket, compacted));
          return true;
        }
        if (code != Status.Code.CANCELLED) {
          log.info("watch of {} ended: {}", closed.space(), closed.status());
        }
        if (code == Status.Code.UNAVAILABLE || GrpcAuthority.isTooManyPings(closed.status())) {
          throw new AuthorityException("the authority closed the live stream: " + closed.status(), true, null);
        }
        if (!authority.acceptsLargerAfter(closed.status()) && !GrpcAuthority.isOutage(closed.status())
            && code != Status.Code.OK) {
          AuthorityException refused = new AuthorityException("watch of " + closed.space() + " failed: " + code, false,
              closed.status().asRuntimeException());
          refusals.refuse(Optional.of(closed.space()), Refusal.Held.PULLS, refused)
              .ifPresent(r -> log.warn("sync of {}: {}", closed.space(), r));
        }
      }
    } else if (signal instanceof Rescope rescope) {
      replicated = null;
      refusals.retrySpace(rescope.space());
      closeStream(rescope.space());
    }
    return true;
  }

  /**
   * After a failed cycle: reports {@code state} with the failure and waits out the backoff. An
   * outage also means the authority may come back changed (restarted with other limits or grants):
   * its limits are asked for again and every refusal is tried again at once.
   */
  private void failed(RuntimeException e, SyncStatus.State state) throws InterruptedException {
    closeAllStreams();
    if (state == SyncStatus.State.OFFLINE) {
      infoDue = true;
      refusals.retryAll();
    }
    refreshStatus(Optional.of(e.getMessage() == null ? e.toString() : e.getMessage()), state);
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

  private void refreshStatus(Optional<String> error, SyncStatus.State state) {
    long version = status.version();
    try {
      refreshStatus(spaces.get(), version, error, state);
    } catch (StoreException unreadable) {
      // The store cannot be read either: report the fault with the counts last seen.
      status.set(new SyncStatus(state, lastToPush, lastToPull, error, refusals.current(),
          status.current().historyUnavailable()), version);
    }
  }

  /**
   * Computes the status from the replicated spaces; {@code version} must have been read before
   * {@code replicated} and before anything the cycle did, so that a local change made meanwhile
   * keeps the status from turning synced.
   *
   * @param failed the state to report with {@code error}, if there is one
   */
  private void refreshStatus(Set<SpaceId> replicated, long version, Optional<String> error, SyncStatus.State failed) {
    long toPush = 0;
    long toPull = 0;
    boolean synced = error.isEmpty();
    List<Refusal> refused = new ArrayList<>(refusals.current());
    List<HistoryGap> gaps = new ArrayList<>();
    for (SpaceId space : refusals.recorded(SESSION, Refusal.Held.EVERYTHING) ? Set.<SpaceId>of() : replicated) {
      SpaceSync sync = syncs.apply(space);
      long pending = sync.pendingPush();
      Live stream = live.get(space);
      boolean caughtUp = stream != null && stream.caughtUp;
      toPush += pending;
      toPull += caughtUp ? 0 : sync.pendingPullBound();
      synced &= pending == 0 && caughtUp && !sync.state().isReplaying();
      if (pending > 0) {
        refused.addAll(refusedBlocks(sync));
      }
      sync.historyUnavailable().ifPresent(floor -> gaps.add(new HistoryGap(space, floor.value())));
    }
    lastToPush = toPush;
    lastToPull = toPull;
    SyncStatus.State state = error.isPresent()
        ? failed
        : !refused.isEmpty() ? SyncStatus.State.REFUSED : synced ? SyncStatus.State.SYNCED : SyncStatus.State.SYNCING;
    Optional<String> shown = error.isPresent() || refused.isEmpty() ? error : Optional.of(refused.get(0).toString());
    status.set(new SyncStatus(state, toPush, toPull, shown, refused, gaps), version);
  }

  /**
   * The blocks of a space that push leaves out: those in feeds the authority takes no new blocks in,
   * and those larger than it accepts, one refusal for each kind there is.
   */
  private static List<Refusal> refusedBlocks(SpaceSync sync) {
    List<Refusal> refusals = new ArrayList<>(2);
    Map<BlockKey, Integer> closed = sync.refusedInClosedFeeds();
    if (!closed.isEmpty()) {
      BlockKey first = closed.keySet().iterator().next();
      refusals.add(new Refusal(Optional.of(sync.space()), Refusal.Held.BLOCKS, Refusal.Code.FAILED_PRECONDITION,
          closed.size() + " blocks are in feeds the authority takes no new blocks in, kept here, the first " + first
              + ": " + sync.closedFeeds().getOrDefault(first.feedId(), "its stream is over")));
    }
    Map<BlockKey, Integer> large = sync.refused();
    if (!large.isEmpty()) {
      refusals.add(new Refusal(Optional.of(sync.space()), Refusal.Held.BLOCKS, Refusal.Code.RESOURCE_EXHAUSTED,
          large.size() + " blocks are larger than the authority accepts (" + RefusedBlocks.limitOf(sync.limits())
              + "), the first " + large.keySet().iterator().next() + " with " + large.values().iterator().next()
              + " bytes of data"));
    }
    return refusals;
  }

  /** Ends the live stream of {@code space}; until it is caught up again, the status is not synced. */
  private void closeStream(SpaceId space) {
    Live stream = live.remove(space);
    if (stream != null && stream.stream != null) {
      stream.stream.cancel();
    }
    if (stream != null && !stopped) {
      status.unsettled();
    }
  }

  private void closeAllStreams() {
    for (SpaceId space : Set.copyOf(live.keySet())) {
      closeStream(space);
    }
  }

  private static void logStep(SpaceId space, SyncStep step) {
    if (step.restarted() || step.kind() == SyncStep.Kind.REKEYED || step.kind() == SyncStep.Kind.FEEDS_CLOSED) {
      log.warn("sync of {}: {}", space, step.detail());
    } else if (log.isDebugEnabled() && step.kind() != SyncStep.Kind.IDLE) {
      log.debug("sync of {}: {}", space, step.detail());
    }
  }
}
