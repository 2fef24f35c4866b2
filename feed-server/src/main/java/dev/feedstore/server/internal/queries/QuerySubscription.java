package dev.feedstore.server.internal.queries;

import dev.feedstore.core.LimitExceededException;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.Row;
import dev.feedstore.core.query.result.ChangeBatch;
import dev.feedstore.server.internal.errors.HistoryRolledBackException;
import dev.feedstore.server.internal.errors.CallRefusal;
import dev.feedstore.server.internal.errors.ShuttingDownException;
import dev.feedstore.server.internal.live.SerialDrain;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One subscriber of a live query, whatever its transport: an ack, the snapshot as of the fence from
 * the {@link SharedQuery} (or, resuming, the changes after its token), then the shared query's
 * batches in turn, with heartbeats while idle, all written to a {@link QuerySink}.
 *
 * <p>The subscription holds no queue: its progress is the number of the next shared batch it sends
 * and the position its client's rows are as of. It sends only while the sink is ready; a batch the
 * shared query no longer keeps (the subscriber was slow) makes it catch up from storage: the
 * result as of its position, read again, against the shared state now, sent as one batch ({@link
 * #catchUp}). A resume that cannot be computed exactly (another server token or query, a position
 * above the space's, a floor that moved since) is a reset and a fresh snapshot, as is a history
 * that went back under the shared query.
 *
 * <p>Thread-safe. All sends run in one serialized drain on the live executor; other threads only set
 * flags and {@link #signal} it.
 */
public final class QuerySubscription {
  /** Events sent in one turn before the drain yields its thread to other streams. */
  private static final int EVENTS_PER_TURN = 8;
  /** Rows in one snapshot event. */
  static final int SNAPSHOT_ROWS_PER_EVENT = 256;

  private enum Phase { START, SNAPSHOT, LIVE }

  private final LiveQuery query;
  private final SpaceQueries space;
  private final QueryStorage storage;
  private final QuerySink sink;
  private final RateLimitedLog failures;
  private final String principal;
  private final int maxSnapshotRows;
  private final String snapshotSetting;
  private final Consumer<QuerySubscription> onRelease;
  private final SerialDrain drain;
  private final AtomicBoolean released = new AtomicBoolean();
  private final AtomicInteger ticks = new AtomicInteger();
  private volatile RuntimeException ending;
  private volatile boolean awaitingReady;

  // Confined to the drain.
  private Optional<ResumeToken> resume;
  private Phase phase = Phase.START;
  /** Written by the drain, read by a release on any thread. */
  private volatile SharedQuery shared;
  private boolean acked;
  private long seq;
  private List<Row> snapshot;
  private int snapshotSent;
  private ResumeToken at;
  private boolean sentSinceHeartbeat;

  QuerySubscription(LiveQuery query, Optional<ResumeToken> resume, SpaceQueries space, QueryStorage storage,
      QuerySink sink, Executor executor, RateLimitedLog failures, String principal, Limit snapshotLimit,
      Consumer<QuerySubscription> onRelease) {
    this.query = query;
    this.resume = resume;
    this.space = space;
    this.storage = storage;
    this.sink = sink;
    this.failures = failures;
    this.principal = principal;
    this.maxSnapshotRows = snapshotLimit.value();
    this.snapshotSetting = snapshotLimit.setting();
    this.onRelease = onRelease;
    this.drain = new SerialDrain(executor, this::turn, () -> finish(ending != null ? ending : new ShuttingDownException()));
  }

  /** A limit and the setting that names it. */
  record Limit(String setting, int value) {}

  /** Hooks the subscription to its sink and starts it; a client that left meanwhile leaves it released. */
  void start() {
    try {
      sink.start(this::ready, this::release);
    } catch (RuntimeException | Error e) {
      release();
      throw e;
    }
    drain.schedule();
  }

  LiveQuery query() {
    return query;
  }

  String principal() {
    return principal;
  }

  SpaceQueries space() {
    return space;
  }

  /** Ends the stream because of {@code reason} (the first ending wins), from any thread. */
  public void end(RuntimeException reason) {
    if (ending == null) {
      ending = reason;
    }
    drain.schedule();
  }

  /** A heartbeat interval passed. */
  void heartbeatTick() {
    ticks.incrementAndGet();
    drain.schedule();
  }

  /** The shared query has a new batch, or ended. */
  void signal() {
    if (!awaitingReady) {
      drain.schedule();
    }
  }

  private void ready() {
    awaitingReady = false;
    drain.schedule();
  }

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
          awaitingReady = true;
          return false;
        }
        awaitingReady = false;
        if (!sendNext()) {
          return false;
        }
      }
      return true;
    } catch (RuntimeException e) {
      fail(e);
      return false;
    } catch (Error e) {
      fail(new IllegalStateException("the live query failed: " + e, e));
      throw e;
    }
  }

  /** Sends the next event if one is due; false when there is nothing to send now. */
  private boolean sendNext() {
    if (shared == null) {
      shared = space.attach(query, this);
      if (released.get()) {
        space.detach(shared, this); // the client left while it attached, and its release saw no query
        return false;
      }
    }
    RuntimeException ended = shared.ended();
    if (ended != null) {
      if (!(ended instanceof HistoryRolledBackException)) {
        throw ended;
      }
      space.detach(shared, this);
      shared = space.attach(query, this);
      return startSnapshot("the space's history went back (a restore or a failover): positions are handed out"
          + " again");
    }
    switch (phase) {
      case START -> {
        return resume.isEmpty() ? startSnapshot(null) : resume(resume.get());
      }
      case SNAPSHOT -> {
        int to = Math.min(snapshot.size(), snapshotSent + SNAPSHOT_ROWS_PER_EVENT);
        if (snapshotSent < to) {
          sink.snapshot(snapshot.subList(snapshotSent, to), at);
          snapshotSent = to;
          return true;
        }
        snapshot = null;
        sink.ready(at);
        sent(true);
        phase = Phase.LIVE;
        return true;
      }
      default -> {
        return sendLive();
      }
    }
  }

  /** A resume after {@code token}: the changes after it and ready, or a reset and a snapshot. */
  private boolean resume(ResumeToken token) {
    String why = null;
    if (!token.serverToken().equals(space.space().token().value())) {
      why = "the resume token is of another store (server token " + token.serverToken() + ", this space's is "
          + space.space().token().value() + ")";
    } else if (!token.queryHash().equals(shared.hash())) {
      why = "the resume token is of another query (hash " + token.queryHash() + ", this query's is " + shared.hash()
          + ")";
    }
    if (why != null) {
      return startSnapshot(why);
    }
    CatchUp caught = catchUp(token);
    if (caught == null) {
      return false; // the shared query has not reached the token's position yet: a commit or a tick tries again
    }
    if (caught.resetReason() != null) {
      return startSnapshot(caught.resetReason());
    }
    resume = Optional.empty();
    sink.ack(new QuerySink.Ack(query, caught.view().at(), true));
    acked = true;
    sendCaughtUp(caught);
    sink.ready(at);
    sent(true);
    phase = Phase.LIVE;
    return true;
  }

  /**
   * What takes a client whose rows are as of {@code from} to the shared state now: a reset reason
   * when that cannot be computed exactly, null when the shared state is behind {@code from}.
   */
  private record CatchUp(SharedQuery.View view, ChangeBatch changes, String resetReason) {}

  /**
   * The result as of {@code from}, read again from storage, against the shared state now. Exact
   * while the store still holds every block above the floor the client's rows were computed with.
   */
  private CatchUp catchUp(ResumeToken from) {
    QueryStorage.Loaded before = storage.load(query, from.position());
    if (from.position() > before.highest()) {
      return new CatchUp(null, null, "position " + from.position() + " is above the space's highest, "
          + before.highest() + ": its history went back");
    }
    if (before.floor() != from.floor()) {
      return new CatchUp(null, null, "the space was compacted since position " + from.position() + " (floor "
          + from.floor() + ", now " + before.floor() + ")");
    }
    SharedQuery.View view = shared.view();
    if (view == null) {
      return null; // it ended: the next step says how
    }
    if (view.at().position() < from.position()) {
      return null;
    }
    if (view.at().floor() != from.floor()) {
      return new CatchUp(null, null, "the space was compacted since position " + from.position() + " (floor "
          + from.floor() + ", now " + view.at().floor() + ")");
    }
    return new CatchUp(view, ChangeBatch.between(query.evaluate(before.current()), view.rows()), null);
  }

  private void sendCaughtUp(CatchUp caught) {
    if (!caught.changes().isEmpty()) {
      sink.changes(QueryBatch.own(caught.view().at(), caught.changes()));
    }
    at = caught.view().at();
    seq = caught.view().nextSeq();
  }

  /**
   * Starts a snapshot of the shared state now: an ack first unless one was sent, a reset first when
   * {@code resetReason} is set.
   *
   * @throws LimitExceededException if the snapshot holds more than {@code live-query-snapshot-rows} rows
   */
  private boolean startSnapshot(String resetReason) {
    SharedQuery.View view = shared.view();
    if (view == null) {
      return true; // it ended: the next step says how
    }
    if (view.rows().size() > maxSnapshotRows) {
      throw new LimitExceededException(snapshotSetting, maxSnapshotRows, view.rows().size(),
          "the snapshot of live query " + shared.hash());
    }
    resume = Optional.empty();
    at = view.at();
    seq = view.nextSeq();
    if (!acked) {
      sink.ack(new QuerySink.Ack(query, at, false));
      acked = true;
    }
    if (resetReason != null) {
      sink.reset(resetReason, at);
    }
    snapshot = view.rows();
    snapshotSent = 0;
    phase = Phase.SNAPSHOT;
    return true;
  }

  private boolean sendLive() {
    SharedQuery.Next next = shared.next(seq);
    if (next == null) {
      return true; // it ended: the next step says how
    }
    if (next.batch() != null) {
      sink.changes(next.batch());
      seq++;
      at = next.batch().stamp();
      sent(true);
      return true;
    }
    if (next.behind()) {
      CatchUp caught = catchUp(at); // the shared state is at or past the client's position, as it was there
      if (caught == null) {
        return true; // it ended: the next step says how
      }
      if (caught.resetReason() != null) {
        return startSnapshot(caught.resetReason());
      }
      sendCaughtUp(caught);
      sent(true);
      return true;
    }
    int elapsed = ticks.getAndSet(0);
    if (elapsed > 0) {
      if (elapsed > 1 || !sentSinceHeartbeat) {
        at = next.at();
        sink.heartbeat(at);
        sent(false);
      }
      sentSinceHeartbeat = false;
    }
    return false;
  }

  private void sent(boolean notHeartbeat) {
    sentSinceHeartbeat = notHeartbeat;
  }

  private void fail(RuntimeException failure) {
    if (released.get()) {
      return;
    }
    if (!CallRefusal.of(failure).code().byRequest()) {
      failures.log("live query of space " + query.space() + " for " + principal + " failed", failure);
    }
    finish(failure);
  }

  private void finish(RuntimeException reason) {
    try {
      sink.end(reason);
    } catch (RuntimeException e) {
      // The client went away meanwhile.
    } finally {
      release();
    }
  }

  /** Leaves the shared query and gives back the subscription's places; idempotent. */
  private void release() {
    if (released.compareAndSet(false, true)) {
      if (shared != null) {
        space.detach(shared, this);
      }
      onRelease.accept(this);
    }
  }
}
