package dev.feedstore.server.internal;

import dev.feedstore.core.LimitExceededException;
import dev.feedstore.server.ServerSettings;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;

/**
 * The open Watch streams: admits new ones within {@code watches-per-server} and {@code
 * watches-per-connection}, drives their periodic work ({@link #tick}: renewing their subscriptions,
 * ending those whose subscription is gone with {@code NOT_FOUND}, heartbeats), and ends them all
 * with {@code UNAVAILABLE} on shutdown.
 *
 * <p>A stream renews its subscription while it is open: an open Watch is a use of the
 * subscription. A subscription that expires anyway (its TTL is shorter than the heartbeat
 * interval, or the server was paused past it) ends its streams at the next tick.
 *
 * <p>Thread-safe.
 */
final class Watches {
  private final PositionAuthority authority;
  private final ServerSettings settings;
  private final Executor executor;
  private final RateLimitedLog failures;
  private final Object lock = new Object();
  /** Guarded by lock. */
  private final Set<WatchStream> open = new LinkedHashSet<>();
  /** Guarded by lock. */
  private final Map<WatchStream, String> connections = new HashMap<>();
  /** Guarded by lock. */
  private final Map<String, Integer> perConnection = new HashMap<>();
  /** Guarded by lock. */
  private boolean closing;

  Watches(PositionAuthority authority, Executor executor, RateLimitedLog failures) {
    this.authority = authority;
    this.settings = authority.settings();
    this.executor = executor;
    this.failures = failures;
  }

  /**
   * Opens a stream for a validated request on the connection {@code connection} and starts it.
   *
   * @throws SubscriptionNotFoundException if its subscription is unknown or expired
   * @throws LimitExceededException if a watch limit is reached
   * @throws ShuttingDownException if the server is shutting down
   */
  void open(ReadRequest request, String requestId, ServerCallStreamObserver<WatchFrame> call, String connection) {
    // Checked before resolving too, which slides the subscription's expiry and may create the
    // space's token: a refused stream writes nothing (unless it lost a race for the last place).
    synchronized (lock) {
      checkAdmissible(connection);
    }
    ResolvedRead read = authority.resolve(request);
    WatchStream stream = new WatchStream(requestId, read, authority, call, executor, failures, this::release);
    synchronized (lock) {
      try {
        checkAdmissible(connection);
      } catch (RuntimeException e) {
        authority.release(read);
        throw e;
      }
      open.add(stream);
      connections.put(stream, connection);
      perConnection.merge(connection, 1, Integer::sum);
      // Started under the lock, so that closeAll cannot end the stream before its handlers are set.
      // Starting does no I/O: it sets the call's handlers, registers with the tail and signals.
      stream.start();
    }
  }

  /** Throws unless a stream may open on {@code connection} now. Needs the lock. */
  private void checkAdmissible(String connection) {
    if (closing) {
      throw new ShuttingDownException();
    }
    if (open.size() >= settings.watchesPerServer()) {
      throw new LimitExceededException(ServerSettings.Key.WATCHES_PER_SERVER, settings.watchesPerServer(),
          open.size() + 1L, "open Watch streams on this server");
    }
    int onConnection = perConnection.getOrDefault(connection, 0);
    if (onConnection >= settings.watchesPerConnection()) {
      throw new LimitExceededException(ServerSettings.Key.WATCHES_PER_CONNECTION,
          settings.watchesPerConnection(), onConnection + 1L, "open Watch streams on connection " + connection);
    }
  }

  /** How many streams are open. */
  int openCount() {
    synchronized (lock) {
      return open.size();
    }
  }

  /**
   * The periodic work: renews the subscriptions of open streams (and purges expired ones) in one
   * transaction, ends the streams whose subscription is gone, and gives every stream a heartbeat
   * tick. Blocks on the store.
   */
  void tick() {
    List<WatchStream> streams = snapshot();
    Map<String, List<WatchStream>> bySubscription = new LinkedHashMap<>();
    for (WatchStream stream : streams) {
      stream.subscriptionId().ifPresent(id -> bySubscription.computeIfAbsent(id, k -> new ArrayList<>()).add(stream));
    }
    Set<String> lost = authority.subscriptions().renew(bySubscription.keySet());
    for (String id : lost) {
      for (WatchStream stream : bySubscription.get(id)) {
        stream.end(Status.NOT_FOUND.withDescription(
            new SubscriptionNotFoundException(id, stream.read().space().spaceId(), "expired").getMessage()));
      }
    }
    for (WatchStream stream : streams) {
      stream.heartbeatTick();
    }
  }

  /** Refuses new streams and ends every open one with {@code status}. */
  void closeAll(Status status) {
    List<WatchStream> streams;
    synchronized (lock) {
      closing = true;
      streams = new ArrayList<>(open);
    }
    for (WatchStream stream : streams) {
      stream.end(status);
    }
  }

  private List<WatchStream> snapshot() {
    synchronized (lock) {
      return new ArrayList<>(open);
    }
  }

  private void release(WatchStream stream) {
    synchronized (lock) {
      if (!open.remove(stream)) {
        return;
      }
      String connection = connections.remove(stream);
      perConnection.computeIfPresent(connection, (k, n) -> n == 1 ? null : n - 1);
    }
    authority.release(stream.read());
  }
}
