package dev.feedstore.server.internal.core;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.REJECTIONS_LOGGED_PER_MINUTE;
import static dev.feedstore.server.settings.ServerSettings.RETENTION_INTERVAL_MS;
import static dev.feedstore.server.settings.ServerSettings.RPC_THREADS;
import static dev.feedstore.server.settings.ServerSettings.WATCH_THREADS;
import static dev.feedstore.server.settings.ServerSettings.WRITE_PROBE_MS;

import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.AuthorityStore;
import dev.feedstore.core.store.CommitListener;
import dev.feedstore.core.store.StorageFaultException;
import dev.feedstore.server.internal.access.Authenticator;
import dev.feedstore.server.internal.access.PrincipalLimits;
import dev.feedstore.server.internal.append.ClosedFeeds;
import dev.feedstore.server.internal.authority.PositionAuthority;
import dev.feedstore.server.internal.authority.RetentionRunner;
import dev.feedstore.server.internal.errors.ShuttingDownException;
import dev.feedstore.server.internal.live.DrainQueue;
import dev.feedstore.server.internal.live.Watches;
import dev.feedstore.server.internal.queries.LiveQueries;
import dev.feedstore.server.internal.monitoring.NamedThreads;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import dev.feedstore.server.internal.monitoring.ServerMetrics;
import dev.feedstore.server.internal.spaces.CommitRecheck;
import dev.feedstore.server.internal.storage.MonitoredStore;
import dev.feedstore.server.internal.storage.StorageHealth;
import dev.feedstore.server.settings.ServerSettings;
import java.time.Clock;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * Everything behind the server's sockets, shared by its transports (gRPC and HTTP): the authority,
 * the live streams, access rules, metrics, the threads they run on, and the ticker that drives
 * heartbeats, subscription renewal and purging. Owns its executors (shut down by {@link #close});
 * does not own the store.
 *
 * <p>Thread-safe.
 */
public final class ServerCore implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger("dev.feedstore.server");

  private final ServerSettings settings;
  private final ExecutorService rpcExecutor;
  private final ExecutorService watchExecutor;
  private final ScheduledExecutorService ticker;
  private final RateLimitedLog rejections;
  private final RateLimitedLog failures;
  private final Watches watches;
  private final LiveQueries liveQueries;
  private final ServerMetrics metrics = new ServerMetrics();
  private final StorageHealth storage;
  private final PositionAuthority authority;
  private final Authenticator authenticator;
  private final BlockAccess blockAccess;
  private final PrincipalLimits principalLimits;
  private final AuthorityStore<?> store;
  private final Clock clock;
  private final RetentionRunner retention;
  private final CommitRecheck recheck;
  private final ApiCalls calls;

  /**
   * The caller keeps owning {@code store}; {@code authenticator} decides who may call, {@code
   * closedFeeds} which feeds take no new blocks (those of Durable Streams that are over).
   */
  public ServerCore(AuthorityStore<?> store, ServerSettings settings, Clock clock, Authenticator authenticator,
      ClosedFeeds closedFeeds) {
    this.authenticator = authenticator;
    this.settings = settings;
    this.store = store;
    this.clock = clock;
    this.rpcExecutor = Executors.newFixedThreadPool(settings.get(RPC_THREADS), new NamedThreads("feed-rpc"));
    this.watchExecutor = Executors.newFixedThreadPool(settings.get(WATCH_THREADS), new NamedThreads("feed-watch"));
    this.ticker = Executors.newSingleThreadScheduledExecutor(new NamedThreads("feed-ticker"));
    this.rejections = new RateLimitedLog(LOG, Level.WARN, "rejected requests", clock,
        settings.get(REJECTIONS_LOGGED_PER_MINUTE));
    this.failures = new RateLimitedLog(LOG, Level.ERROR, "server failures", clock,
        Math.max(1, settings.get(REJECTIONS_LOGGED_PER_MINUTE)));
    this.storage = new StorageHealth(store, settings.get(WRITE_PROBE_MS));
    this.authority = new PositionAuthority(MonitoredStore.of(store, storage), settings, clock, closedFeeds);
    this.blockAccess = new BlockAccess(authority);
    this.principalLimits = new PrincipalLimits(settings, System::nanoTime, metrics);
    DrainQueue drains = new DrainQueue(watchExecutor, settings.get(WATCH_THREADS));
    this.watches = new Watches(authority, drains, failures, principalLimits, ticker, clock);
    this.liveQueries = new LiveQueries(authority, drains, failures, ticker, clock);
    this.retention = new RetentionRunner(authority, failures, settings.get(RETENTION_INTERVAL_MS));
    metrics.gauge("feedstore_watch_streams", "Live streams open (gRPC Watch and Server-Sent Events).",
        watches::openCount);
    metrics.gauge("feedstore_live_queries", "Live queries open (gRPC LiveQuery and Server-Sent Events).",
        liveQueries::openCount);
    metrics.gauge("feedstore_live_queries_shared", "Shared states of live queries: one per canonical query and space"
        + " in use, whatever its subscribers.", liveQueries::sharedCount);
    metrics.counter("feedstore.live_query.blocks_parsed", "Blocks whose JSON live queries read: a committed block once"
        + " for every query of its space, and the blocks loads of new queries and catch-ups from storage read.",
        liveQueries, LiveQueries::blocksParsed);
    metrics.counter("feedstore.live_query.evaluations", "Blocks live queries evaluated, once for every shared query"
        + " that evaluated the block: a committed block goes only to the queries it can change.", liveQueries,
        LiveQueries::evaluations);
    metrics.gauge("feedstore_watch_scope_bytes", "Heap the scopes of open live streams hold.", watches::scopeBytes);
    metrics.counter("feedstore.append.groups", "Groups of appends committed together in one transaction (a lone"
        + " append is a group of one).", authority, PositionAuthority::appendGroups);
    metrics.counter("feedstore.append.grouped", "Appends committed in groups; divided by"
        + " feedstore_append_groups_total, the mean size of a group.", authority, PositionAuthority::groupedAppends);
    metrics.gauge("feedstore_spaces_loaded", "Spaces of the store this process has served since it started.",
        authority::loadedSpaces);
    metrics.gauge("feedstore_jvm_heap_used_bytes", "Heap in use, garbage included.",
        () -> Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory());
    this.calls = new ApiCalls(authority, blockAccess, settings);
    this.recheck = new CommitRecheck(authority::spacesInMemory, authority::recheck, LOG);
    store.listen(new OtherProcesses());
  }

  /**
   * Commits other processes made to a shared store (PostgreSQL): wakes this process's watchers of
   * the space, and after a gap in what the store heard, has every space's position read again
   * ({@link CommitRecheck}, on a thread of its own, until each read succeeds). A commit told while
   * those reads run only moves a position forward, so the order of the two does not matter.
   */
  private final class OtherProcesses implements CommitListener {
    @Override
    public void committed(SpaceId spaceId, Position highest) {
      authority.committedElsewhere(spaceId, highest);
    }

    @Override
    public void missedCommits() {
      recheck.missedCommits();
    }
  }

  /** The server's metrics, for the metrics endpoint. */
  public ServerMetrics metrics() {
    return metrics;
  }

  public Clock clock() {
    return clock;
  }

  /** The timer thread: scheduled work must not block. */
  public java.util.concurrent.ScheduledExecutorService timers() {
    return ticker;
  }

  public ServerSettings settings() {
    return settings;
  }

  public PositionAuthority authority() {
    return authority;
  }

  public Watches watches() {
    return watches;
  }

  public LiveQueries liveQueries() {
    return liveQueries;
  }

  /** The calls besides reads, appends and live streams, as every transport makes them. */
  public ApiCalls calls() {
    return calls;
  }

  public Authenticator authenticator() {
    return authenticator;
  }

  /** Which blocks a caller may read and write: its grants applied to scopes and feeds. */
  public BlockAccess blockAccess() {
    return blockAccess;
  }

  public PrincipalLimits principalLimits() {
    return principalLimits;
  }

  public RateLimitedLog rejections() {
    return rejections;
  }

  public RateLimitedLog failures() {
    return failures;
  }

  /** The executor request handlers run on (they block on the store). */
  public Executor requestExecutor() {
    return rpcExecutor;
  }

  /**
   * Commits a tiny write to learn whether the store takes writes (see {@link AuthorityStore#probeWrite});
   * a full disk marks writes failing and lets the server start, to serve reads.
   *
   * @throws dev.feedstore.core.store.StorageFaultException if the store cannot take writes for
   *     another reason (a read-only file, an I/O error, a damaged file)
   */
  public void checkStorage() {
    storage.check();
  }

  /**
   * Runs {@code listener} whenever {@link #storageTakesWrites} or {@link #storageServesReads} may
   * have changed, as found by the transactions themselves and the write probe.
   */
  public void onStorageHealth(Runnable listener) {
    storage.listen(listener);
  }

  /** Whether the store takes writes now: none failed on the storage since the last good probe. */
  public boolean storageTakesWrites() {
    return storage.takesWrites();
  }

  /** Whether the store serves reads now: none failed on the storage since the last good probe. */
  public boolean storageServesReads() {
    return storage.servesReads();
  }

  /**
   * Starts the periodic work: heartbeats and subscriptions every {@code heartbeat-ms}, the write
   * probe every {@code write-probe-ms}, retention every {@code retention-interval-ms}.
   */
  public void startTicking() {
    ticker.scheduleWithFixedDelay(this::tick, settings.get(HEARTBEAT_MS), settings.get(HEARTBEAT_MS),
        TimeUnit.MILLISECONDS);
    storage.start();
    retention.start();
  }

  /**
   * Applies retention to every space of the store once (the retention thread does every {@code
   * retention-interval-ms}; tests may call it). Blocks until done.
   *
   * @return how many blocks it removed
   */
  public long applyRetention() {
    return retention.runOnce();
  }

  /** Runs the periodic work once (the ticker calls it; tests may too). */
  public void tick() {
    try {
      watches.tick();
      liveQueries.tick();
      principalLimits.forgetIdle();
      rejections.flush();
      failures.flush();
    } catch (StorageFaultException e) {
      // Renewing subscriptions writes; the message says what is wrong with the storage.
      failures.log("periodic work failed; it runs again in " + settings.get(HEARTBEAT_MS) + " ms: "
          + e.getMessage(), null);
    } catch (RuntimeException e) {
      failures.log("periodic work failed; it runs again in " + settings.get(HEARTBEAT_MS) + " ms", e);
    }
  }

  /** How many Watch streams are open. */
  public int openWatches() {
    return watches.openCount();
  }

  /** Refuses new live streams and live queries and ends the open ones with {@code UNAVAILABLE}. */
  public void endWatches() {
    watches.closeAll(new ShuttingDownException());
    liveQueries.closeAll(new ShuttingDownException());
  }

  /** Stops the ticker, the executors and the authority's committing thread, waiting briefly for running work. */
  @Override
  public void close() {
    store.listen(null);
    recheck.close();
    ticker.shutdownNow();
    retention.close();
    storage.close();
    watchExecutor.shutdown();
    rpcExecutor.shutdown();
    try {
      watchExecutor.awaitTermination(5, TimeUnit.SECONDS);
      rpcExecutor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    watchExecutor.shutdownNow();
    rpcExecutor.shutdownNow();
    authority.close(TimeUnit.SECONDS.toMillis(5));
  }
}
