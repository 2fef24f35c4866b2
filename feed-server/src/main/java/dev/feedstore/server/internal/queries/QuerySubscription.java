package dev.feedstore.server.internal.queries;

import dev.feedstore.core.LimitExceededException;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.Row;
import dev.feedstore.core.query.result.ChangeBatch;
import dev.feedstore.server.internal.errors.HistoryRolledBackException;
import dev.feedstore.server.internal.live.LiveStream;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * One subscriber of a live query, whatever its transport: an ack, the snapshot as of the fence from
 * the {@link SharedQuery} (or, resuming, the changes after its token), then the shared query's
 * batches in turn, with heartbeats while idle, all written to a {@link QuerySink}; how it sends (one
 * drain, only while the transport is ready, in turns, heartbeats, its end) is every live stream's
 * ({@link LiveStream}).
 *
 * <p>The subscription holds no queue: its progress is the number of the next shared batch it sends
 * and the position its client's rows are as of. Behind by several batches the shared query keeps, it
 * sends them as one, their net change ({@link SharedQuery#batchFrom}). A batch the shared query no longer keeps (the
 * subscriber was slow) makes it catch up from storage: the result as of its position, read again,
 * against the shared state now, sent as one batch ({@link #catchUp}). A resume that cannot be
 * computed exactly (another server token or query, a position above the space's, a floor that moved
 * since) is a reset and a fresh snapshot, as is a history that went back under the shared query.
 *
 * <p>Thread-safe. All sends run in its stream's drain; other threads only signal its stream or end it.
 */
public final class QuerySubscription {
  /** Rows in one snapshot event. */
  static final int SNAPSHOT_ROWS_PER_EVENT = 256;

  private enum Phase { START, SNAPSHOT, LIVE }

  private final LiveQuery query;
  private final SpaceQueries space;
  private final QueryStorage storage;
  private final QuerySink sink;
  private final String principal;
  private final int maxSnapshotRows;
  private final String snapshotSetting;
  private final LiveStream stream;

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
  /** Where the shared query stood when the drain last found no batch to send: what a heartbeat carries. */
  private ResumeToken standing;

  QuerySubscription(LiveQuery query, Optional<ResumeToken> resume, SpaceQueries space, QueryStorage storage,
      QuerySink sink, Executor executor, RateLimitedLog failures, String principal, Limit snapshotLimit,
      Consumer<QuerySubscription> onRelease) {
    this.query = query;
    this.resume = resume;
    this.space = space;
    this.storage = storage;
    this.sink = sink;
    this.principal = principal;
    this.maxSnapshotRows = snapshotLimit.value();
    this.snapshotSetting = snapshotLimit.setting();
    this.stream = new LiveStream(sink, new LiveStream.Source() {
      @Override
      public boolean sendNext() {
        return QuerySubscription.this.sendNext();
      }

      @Override
      public void heartbeat() {
        if (phase == Phase.LIVE) {
          at = standing; // every batch up to it was sent
          sink.heartbeat(at);
        }
      }
    }, executor, failures, "live query of space " + query.space() + " for " + principal, () -> {
      SharedQuery joined = shared;
      if (joined != null) {
        space.detach(joined, this);
      }
      onRelease.accept(this);
    });
  }

  /** A limit and the setting that names it. */
  record Limit(String setting, int value) {}

  /** Hooks the subscription to its sink and starts it; a client that left meanwhile leaves it released. */
  void start() {
    stream.hook();
    stream.schedule();
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
    stream.end(reason);
  }

  /** A heartbeat interval passed. */
  void heartbeatTick() {
    stream.heartbeatTick();
  }

  /**
   * The stream it sends on: the shared query signals it (a new batch, or the query ended) with its
   * other subscribers' ({@link LiveStream#signalAll}).
   */
  LiveStream stream() {
    return stream;
  }

  /** Sends the next event if one is due; false when there is nothing to send now. */
  private boolean sendNext() {
    if (shared == null) {
      shared = space.attach(query, this);
      if (stream.released()) {
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
        stream.sent();
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
    stream.sent();
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
    QueryBatch batch = shared.batchFrom(seq);
    if (batch != null) {
      sink.changes(batch);
      seq = batch.seq() + 1;
      at = batch.stamp();
      stream.sent();
      return true;
    }
    SharedQuery.Next next = shared.next(seq);
    if (next == null) {
      return true; // it ended: the next step says how
    }
    if (next.batch() != null) {
      return true; // added since: the next step sends it
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
      stream.sent();
      return true;
    }
    standing = next.at();
    return false;
  }
}
