package dev.feedstore.server.internal.live;

import static dev.feedstore.server.settings.ServerSettings.WATCHES_PER_CONNECTION;
import static dev.feedstore.server.settings.ServerSettings.WATCHES_PER_SERVER;
import static dev.feedstore.server.settings.ServerSettings.WATCH_SCOPE_BYTES;
import static dev.feedstore.server.settings.ServerSettings.WATCH_SCOPE_BYTES_PER_CONNECTION;

import dev.feedstore.core.LimitExceededException;
import dev.feedstore.core.Scope;
import dev.feedstore.server.internal.access.Caller;
import dev.feedstore.server.internal.access.PrincipalLimits;
import dev.feedstore.server.internal.authority.PositionAuthority;
import dev.feedstore.server.internal.authority.ReadRequest;
import dev.feedstore.server.internal.authority.ResolvedRead;
import dev.feedstore.server.internal.errors.AccessDeniedException;
import dev.feedstore.server.internal.errors.ShuttingDownException;
import dev.feedstore.server.internal.errors.SubscriptionNotFoundException;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import dev.feedstore.server.settings.ServerSettings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The open live streams of every transport (gRPC Watch, Server-Sent Events): admits new ones
 * within {@code watches-per-server}, {@code watches-per-connection} and the caller's {@code
 * principal-streams}, and while the memory their scopes hold ({@link Scope#heapBytes}) stays
 * within {@code watch-scope-bytes} and {@code watch-scope-bytes-per-connection}; drives their
 * periodic work ({@link #tick}: renewing their subscriptions, ending those whose subscription is
 * gone with {@code NOT_FOUND}, heartbeats), ends a stream when its caller's token expires, and
 * ends them all with {@code UNAVAILABLE} on shutdown. A connection is named by its transport and
 * remote address ({@code grpc /10.0.0.7:51234}).
 *
 * <p>A stream renews its subscription while it is open: an open Watch is a use of the
 * subscription. A subscription that expires anyway (its TTL is shorter than the heartbeat
 * interval, or the server was paused past it) ends its streams at the next tick.
 *
 * <p>Thread-safe.
 */
public final class Watches {
  /**
   * What one stream was admitted with: its connection, the bytes its scope holds, and the timer that
   * ends it when its caller's token expires (null when the token does not expire).
   */
  private record Admitted(String connection, long scopeBytes, ScheduledFuture<?> expiry) {}

  /** The streams of one connection and the bytes their scopes hold. Guarded by lock. */
  private static final class Usage {
    int streams;
    long scopeBytes;
  }

  private final PositionAuthority authority;
  private final ServerSettings settings;
  private final Executor executor;
  private final RateLimitedLog failures;
  private final PrincipalLimits principals;
  private final ScheduledExecutorService timers;
  private final Clock clock;
  private final Object lock = new Object();
  /** Guarded by lock. */
  private final Set<LiveFollower> open = new LinkedHashSet<>();
  /** Guarded by lock. */
  private final Map<LiveFollower, Admitted> admitted = new HashMap<>();
  /** Guarded by lock. */
  private final Map<String, Usage> perConnection = new HashMap<>();
  /** Guarded by lock: the bytes the scopes of all open streams hold. */
  private long scopeBytes;
  /** Guarded by lock. */
  private boolean closing;

  public Watches(PositionAuthority authority, Executor executor, RateLimitedLog failures, PrincipalLimits principals,
      ScheduledExecutorService timers, Clock clock) {
    this.authority = authority;
    this.principals = principals;
    this.timers = timers;
    this.clock = clock;
    this.settings = authority.settings();
    this.executor = executor;
    this.failures = failures;
  }

  /**
   * Opens a stream for a validated request of {@code caller} on the connection {@code connection},
   * writing to {@code sink}, and starts it.
   *
   * @throws SubscriptionNotFoundException if its subscription is unknown or expired
   * @throws LimitExceededException if a watch limit is reached
   * @throws RateLimitedException if the caller holds {@code principal-streams} streams already
   * @throws ShuttingDownException if the server is shutting down
   */
  public void open(ReadRequest request, LiveSink sink, String connection, Caller caller) {
    openFollower(request, sink, connection, caller);
  }

  /**
   * {@link #open}, returning the started follower (a caller may {@link LiveFollower#end} it). A stream
   * whose client left while it started is returned released; one whose start failed is released (all
   * it was admitted with given back) and the failure rethrown.
   */
  public LiveFollower openFollower(ReadRequest request, LiveSink sink, String connection, Caller caller) {
    // Checked before resolving too, which slides the subscription's expiry: a refused stream
    // writes nothing (unless it lost a race for the last place, or its subscription's scope, known
    // only once looked up, is what does not fit).
    synchronized (lock) {
      checkAdmissible(connection, request.scope().direct().heapBytes());
    }
    ResolvedRead read = authority.resolve(request);
    long bytes = read.scope().heapBytes();
    LiveFollower stream = new LiveFollower(read, authority, sink, executor, failures, caller.principal(),
        this::release);
    synchronized (lock) {
      try {
        checkAdmissible(connection, bytes);
        principals.openStream(caller.principal());
      } catch (RuntimeException e) {
        authority.release(read);
        throw e;
      }
      open.add(stream);
      admitted.put(stream, new Admitted(connection, bytes, caller.expiresAt().map(at -> expiry(stream, at))
          .orElse(null)));
      Usage usage = perConnection.computeIfAbsent(connection, k -> new Usage());
      usage.streams++;
      usage.scopeBytes += bytes;
      scopeBytes += bytes;
      // Started under the lock, so that closeAll cannot end the stream before its handlers are set.
      // Starting does no I/O: it sets the call's handlers, registers with the tail and signals.
      stream.start();
    }
    return stream;
  }

  /** Throws unless a stream whose scope holds {@code bytes} may open on {@code connection} now. Needs the lock. */
  private void checkAdmissible(String connection, long bytes) {
    if (closing) {
      throw new ShuttingDownException();
    }
    if (open.size() >= settings.get(WATCHES_PER_SERVER)) {
      throw new LimitExceededException(WATCHES_PER_SERVER.name(), settings.get(WATCHES_PER_SERVER),
          open.size() + 1L, "open Watch streams on this server");
    }
    Usage usage = perConnection.getOrDefault(connection, new Usage());
    if (usage.streams >= settings.get(WATCHES_PER_CONNECTION)) {
      throw new LimitExceededException(WATCHES_PER_CONNECTION.name(),
          settings.get(WATCHES_PER_CONNECTION), usage.streams + 1L, "open Watch streams on connection " + connection);
    }
    if (scopeBytes + bytes > settings.get(WATCH_SCOPE_BYTES)) {
      throw new LimitExceededException(WATCH_SCOPE_BYTES.name(), settings.get(WATCH_SCOPE_BYTES),
          scopeBytes + bytes, "scope bytes of open Watch streams on this server with this one");
    }
    if (usage.scopeBytes + bytes > settings.get(WATCH_SCOPE_BYTES_PER_CONNECTION)) {
      throw new LimitExceededException(WATCH_SCOPE_BYTES_PER_CONNECTION.name(),
          settings.get(WATCH_SCOPE_BYTES_PER_CONNECTION), usage.scopeBytes + bytes,
          "scope bytes of open Watch streams on connection " + connection + " with this one");
    }
  }

  /** A timer that ends {@code stream} when its caller's token expires at {@code at}. */
  private ScheduledFuture<?> expiry(LiveFollower stream, Instant at) {
    long delay = Math.max(0, at.toEpochMilli() - clock.millis());
    return timers.schedule(() -> stream.end(new AccessDeniedException(false, "the access token expired at " + at
        + ": connect again with a fresh token")), delay, TimeUnit.MILLISECONDS);
  }

  /** The bytes the scopes of open streams hold. */
  public long scopeBytes() {
    synchronized (lock) {
      return scopeBytes;
    }
  }

  /** How many streams are open. */
  public int openCount() {
    synchronized (lock) {
      return open.size();
    }
  }

  /** How many streams are open on {@code connection}. */
  int openOn(String connection) {
    synchronized (lock) {
      Usage usage = perConnection.get(connection);
      return usage == null ? 0 : usage.streams;
    }
  }

  /**
   * The periodic work: renews the subscriptions of open streams (and purges expired ones) in one
   * transaction, ends the streams whose subscription is gone, and gives every stream a heartbeat
   * tick. Blocks on the store.
   */
  public void tick() {
    List<LiveFollower> streams = snapshot();
    Map<String, List<LiveFollower>> bySubscription = new LinkedHashMap<>();
    for (LiveFollower stream : streams) {
      stream.subscriptionId().ifPresent(id -> bySubscription.computeIfAbsent(id, k -> new ArrayList<>()).add(stream));
    }
    Set<String> lost = authority.subscriptions().renew(bySubscription.keySet());
    for (String id : lost) {
      for (LiveFollower stream : bySubscription.get(id)) {
        stream.end(new SubscriptionNotFoundException(id, stream.read().space().spaceId(),
            SubscriptionNotFoundException.Reason.SUBSCRIPTION_EXPIRED, "expired"));
      }
    }
    for (LiveFollower stream : streams) {
      stream.heartbeatTick();
    }
  }

  /** Refuses new streams and ends every open one because of {@code reason}. */
  public void closeAll(RuntimeException reason) {
    List<LiveFollower> streams;
    synchronized (lock) {
      closing = true;
      streams = new ArrayList<>(open);
    }
    for (LiveFollower stream : streams) {
      stream.end(reason);
    }
  }

  private List<LiveFollower> snapshot() {
    synchronized (lock) {
      return new ArrayList<>(open);
    }
  }

  private void release(LiveFollower stream) {
    synchronized (lock) {
      if (!open.remove(stream)) {
        return;
      }
      Admitted was = admitted.remove(stream);
      scopeBytes -= was.scopeBytes();
      principals.closeStream(stream.principal());
      if (was.expiry() != null) {
        was.expiry().cancel(false);
      }
      Usage usage = perConnection.get(was.connection());
      usage.streams--;
      usage.scopeBytes -= was.scopeBytes();
      if (usage.streams == 0) {
        perConnection.remove(was.connection());
      }
    }
    authority.release(stream.read());
  }
}
