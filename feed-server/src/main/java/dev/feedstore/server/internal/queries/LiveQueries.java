package dev.feedstore.server.internal.queries;

import static dev.feedstore.server.settings.ServerSettings.LIVE_QUERIES_PER_CONNECTION;
import static dev.feedstore.server.settings.ServerSettings.LIVE_QUERIES_PER_PRINCIPAL;
import static dev.feedstore.server.settings.ServerSettings.LIVE_QUERIES_PER_SERVER;
import static dev.feedstore.server.settings.ServerSettings.LIVE_QUERY_MATCHES;
import static dev.feedstore.server.settings.ServerSettings.LIVE_QUERY_RECENT_ROWS;
import static dev.feedstore.server.settings.ServerSettings.LIVE_QUERY_SNAPSHOT_ROWS;

import dev.feedstore.core.LimitExceededException;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.server.internal.access.Caller;
import dev.feedstore.server.internal.authority.PositionAuthority;
import dev.feedstore.server.internal.errors.AccessDeniedException;
import dev.feedstore.server.internal.errors.ShuttingDownException;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import dev.feedstore.server.internal.spaces.SpaceState;
import dev.feedstore.server.settings.ServerSettings;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The open live queries of every transport (gRPC LiveQuery, Server-Sent Events): admits new ones
 * within {@code live-queries-per-server}, {@code live-queries-per-principal} and {@code
 * live-queries-per-connection} (refused with a {@link LimitExceededException} naming the setting),
 * keeps one {@link SpaceQueries} per space they read, gives them heartbeat ticks, ends a
 * subscription when its caller's token expires, and ends them all on shutdown. The caller has
 * checked the caller's grants for the query's scope.
 *
 * <p>Thread-safe.
 */
public final class LiveQueries {
  /** What one subscription was admitted with. */
  private record Admitted(String connection, SpaceState space, ScheduledFuture<?> expiry) {}

  private final PositionAuthority authority;
  private final ServerSettings settings;
  private final QueryStorage storage;
  private final BlockParses parses = new BlockParses();
  private final LongAdder evaluations = new LongAdder();
  private final Executor executor;
  private final RateLimitedLog failures;
  private final ScheduledExecutorService timers;
  private final Clock clock;
  private final Object lock = new Object();
  /** Guarded by lock. */
  private final Map<QuerySubscription, Admitted> open = new HashMap<>();
  /** Guarded by lock: the open subscriptions of each connection and each principal. */
  private final Map<String, Integer> perConnection = new HashMap<>();
  /** Guarded by lock. */
  private final Map<String, Integer> perPrincipal = new HashMap<>();
  /** Guarded by lock: the queries of each space state in use. */
  private final Map<SpaceState, SpaceQueries> spaces = new IdentityHashMap<>();
  /** Guarded by lock: how many open subscriptions read each space state. */
  private final Map<SpaceState, Integer> readers = new IdentityHashMap<>();
  /** Guarded by lock. */
  private boolean closing;

  public LiveQueries(PositionAuthority authority, Executor executor, RateLimitedLog failures,
      ScheduledExecutorService timers, Clock clock) {
    this.authority = authority;
    this.settings = authority.settings();
    this.storage = new QueryStorage(authority, clock, parses);
    this.executor = executor;
    this.failures = failures;
    this.timers = timers;
    this.clock = clock;
  }

  /**
   * Opens a live query of {@code caller} on {@code connection}, writing to {@code sink}, resuming
   * after {@code resume} when given, and starts it.
   *
   * @throws LimitExceededException naming the live-query limit that is reached
   * @throws ShuttingDownException if the server is shutting down
   */
  public QuerySubscription open(LiveQuery query, Optional<ResumeToken> resume, QuerySink sink, String connection,
      Caller caller) {
    String principal = caller.principal();
    synchronized (lock) {
      checkAdmissible(connection, principal);
    }
    SpaceState state = authority.acquireSpace(query.space());
    QuerySubscription subscription;
    synchronized (lock) {
      try {
        checkAdmissible(connection, principal);
      } catch (RuntimeException e) {
        authority.releaseSpace(state);
        throw e;
      }
      SpaceQueries space = spaces.computeIfAbsent(state, s -> new SpaceQueries(s, storage, parses, evaluations, executor,
          clock, failures, settings.get(LIVE_QUERY_MATCHES), settings.get(LIVE_QUERY_RECENT_ROWS)));
      subscription = new QuerySubscription(query, resume, space, storage, sink, executor, failures, principal,
          new QuerySubscription.Limit(LIVE_QUERY_SNAPSHOT_ROWS.name(), settings.get(LIVE_QUERY_SNAPSHOT_ROWS)),
          this::release);
      ScheduledFuture<?> expiry = caller.expiresAt().map(at -> expiry(subscription, at)).orElse(null);
      open.put(subscription, new Admitted(connection, state, expiry));
      perConnection.merge(connection, 1, Integer::sum);
      perPrincipal.merge(principal, 1, Integer::sum);
      readers.merge(state, 1, Integer::sum);
      // Started under the lock, so that closeAll cannot end it before its handlers are set; starting
      // does no I/O (the drain attaches it to its shared query).
      subscription.start();
    }
    return subscription;
  }

  /** Throws unless another subscription may open now. Needs the lock. */
  private void checkAdmissible(String connection, String principal) {
    if (closing) {
      throw new ShuttingDownException();
    }
    if (open.size() >= settings.get(LIVE_QUERIES_PER_SERVER)) {
      throw new LimitExceededException(LIVE_QUERIES_PER_SERVER.name(), settings.get(LIVE_QUERIES_PER_SERVER),
          open.size() + 1L, "open live queries on this server");
    }
    int onConnection = perConnection.getOrDefault(connection, 0);
    if (onConnection >= settings.get(LIVE_QUERIES_PER_CONNECTION)) {
      throw new LimitExceededException(LIVE_QUERIES_PER_CONNECTION.name(), settings.get(LIVE_QUERIES_PER_CONNECTION),
          onConnection + 1L, "open live queries on connection " + connection);
    }
    int ofPrincipal = perPrincipal.getOrDefault(principal, 0);
    if (ofPrincipal >= settings.get(LIVE_QUERIES_PER_PRINCIPAL)) {
      throw new LimitExceededException(LIVE_QUERIES_PER_PRINCIPAL.name(), settings.get(LIVE_QUERIES_PER_PRINCIPAL),
          ofPrincipal + 1L, "open live queries of " + principal);
    }
  }

  private ScheduledFuture<?> expiry(QuerySubscription subscription, Instant at) {
    long delay = Math.max(0, at.toEpochMilli() - clock.millis());
    return timers.schedule(() -> subscription.end(new AccessDeniedException(false, "the access token expired at "
        + at + ": connect again with a fresh token")), delay, TimeUnit.MILLISECONDS);
  }

  /** How many live queries are open. */
  public int openCount() {
    synchronized (lock) {
      return open.size();
    }
  }

  /** How many shared query states run, in every space: subscribers of one canonical query share one. */
  public int sharedCount() {
    List<SpaceQueries> all;
    synchronized (lock) {
      all = new ArrayList<>(spaces.values());
    }
    return all.stream().mapToInt(SpaceQueries::sharedCount).sum();
  }

  /**
   * How many blocks live queries have read as JSON so far: each block of a committed range once for
   * every query of its space, and the blocks that loads of new queries and catch-ups from storage read.
   */
  public long blocksParsed() {
    return parses.count();
  }

  /**
   * How many blocks live queries have evaluated so far, counted once for every shared query that
   * evaluated the block: a committed block goes only to the queries it can change (those whose
   * filter it can pass by an equal value, those that match its document, and those whose filter has
   * no {@code eq} or {@code in} to find them by).
   */
  public long evaluations() {
    return evaluations.sum();
  }

  /** Gives every open subscription a heartbeat tick. */
  public void tick() {
    for (QuerySubscription subscription : snapshot()) {
      subscription.heartbeatTick();
    }
  }

  /** Refuses new live queries and ends every open one because of {@code reason}. */
  public void closeAll(RuntimeException reason) {
    List<QuerySubscription> all;
    synchronized (lock) {
      closing = true;
      all = new ArrayList<>(open.keySet());
    }
    all.forEach(subscription -> subscription.end(reason));
  }

  private List<QuerySubscription> snapshot() {
    synchronized (lock) {
      return new ArrayList<>(open.keySet());
    }
  }

  private void release(QuerySubscription subscription) {
    Admitted was;
    synchronized (lock) {
      was = open.remove(subscription);
      if (was == null) {
        return;
      }
      perConnection.computeIfPresent(was.connection(), (k, n) -> n == 1 ? null : n - 1);
      perPrincipal.computeIfPresent(subscription.principal(), (k, n) -> n == 1 ? null : n - 1);
      if (was.expiry() != null) {
        was.expiry().cancel(false);
      }
      if (readers.computeIfPresent(was.space(), (k, n) -> n == 1 ? null : n - 1) == null) {
        spaces.remove(was.space());
      }
    }
    authority.releaseSpace(was.space());
  }
}
