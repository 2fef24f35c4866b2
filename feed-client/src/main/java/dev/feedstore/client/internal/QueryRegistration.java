package dev.feedstore.client.internal;

import dev.feedstore.client.LiveQueryEvent;
import dev.feedstore.client.LiveQueryListener;
import dev.feedstore.client.LiveQueryRegistration;
import dev.feedstore.client.LocalState;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.ParsedBlock;
import dev.feedstore.core.query.result.ChangeBatch;
import dev.feedstore.core.query.result.LiveResult;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One live query of a replica: its result, kept incrementally ({@link LiveResult}), and its
 * listener. Its result and what it told are confined to the replica's listener thread, where the
 * rounds of {@link QueryHub} run; {@link #close} and {@link #awaitCurrent} may be called from any
 * thread.
 */
final class QueryRegistration implements LiveQueryRegistration {
  private static final Logger log = LoggerFactory.getLogger(QueryRegistration.class);

  private final Queries queries;
  private final LiveQuery query;
  private final LiveQueryListener listener;
  private final LiveResult result;
  /** Whether the snapshot was told (listener thread only). */
  private boolean told;
  /** The state the last event told (listener thread only). */
  private LocalState state = new LocalState(0, Optional.empty());
  private volatile boolean closed;

  /**
   * What a registration asks of the live queries that hold it ({@link QueryHub}), named here so that
   * it does not import them back.
   */
  interface Queries {
    /** As {@link LiveQueryRegistration#awaitCurrent}, for every registration. */
    boolean awaitCurrent(Duration timeout) throws InterruptedException;

    /** Tells {@code registration} nothing more. */
    void remove(QueryRegistration registration);
  }

  QueryRegistration(Queries queries, LiveQuery query, LiveQueryListener listener, int maxMatches) {
    this.queries = queries;
    this.query = query;
    this.listener = listener;
    this.result = new LiveResult(query, maxMatches);
  }

  @Override
  public LiveQuery query() {
    return query;
  }

  /** Whether its snapshot is still to be told. */
  boolean fresh() {
    return !told;
  }

  boolean closed() {
    return closed;
  }

  LocalState state() {
    return state;
  }

  /**
   * The result made again from every current version: the snapshot, or a reset with the exact
   * difference from what was told.
   */
  LiveQueryEvent reread(List<ParsedBlock> currentVersions, LocalState now) {
    ChangeBatch difference = result.reset(currentVersions);
    LiveQueryEvent event = told ? new LiveQueryEvent.Reset(result.snapshot(), difference, now)
        : new LiveQueryEvent.Snapshot(result.snapshot(), now);
    told = true;
    state = now;
    return event;
  }

  /** The event of a batch of changes, if it changed the result or the state's history gap. */
  Optional<LiveQueryEvent> changed(ChangeBatch batch, LocalState now) {
    boolean gapMoved = !now.historyUnavailable().equals(state.historyUnavailable());
    state = now;
    return batch.isEmpty() && !gapMoved ? Optional.empty() : Optional.of(new LiveQueryEvent.Changes(batch, now));
  }

  /** Ends the registration over {@code cause}: the last event it tells. */
  LiveQueryEvent ended(RuntimeException cause) {
    close();
    return new LiveQueryEvent.Ended(cause, state);
  }

  LiveResult result() {
    return result;
  }

  /** Tells the listener, unless the registration was closed (an end is told anyway). */
  void tell(LiveQueryEvent event) {
    if (closed && !(event instanceof LiveQueryEvent.Ended)) {
      return;
    }
    try {
      listener.onEvent(event);
    } catch (RuntimeException e) {
      log.warn("live query listener for {} threw; it stays registered", query, e);
    }
  }

  @Override
  public boolean awaitCurrent(Duration timeout) throws InterruptedException {
    return queries.awaitCurrent(timeout);
  }

  @Override
  public void close() {
    closed = true;
    queries.remove(this);
  }
}
