package dev.feedstore.client.testing;

import dev.feedstore.proto.v1.FeedSyncGrpc;
import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A server interceptor that holds the authority back on purpose, so that a test can change the
 * authority (compact it) while a replica is in the middle of something: a Query held before the
 * server reads it, or the open Watch streams, whose client then looks not ready, so that the
 * server falls behind them and later resumes them from storage. Nothing is timed: the test waits for the hold and
 * releases it. Thread-safe.
 */
public final class HeldCalls implements ServerInterceptor {
  private static final String QUERY = FeedSyncGrpc.getQueryMethod().getFullMethodName();
  private static final String WATCH = FeedSyncGrpc.getWatchMethod().getFullMethodName();

  /** Queries let through before the next one is held; negative: none is held. */
  private int queriesToPass = -1;
  private boolean queryHeld;
  /** The Watch calls opened so far. */
  private final List<Watch> watches = new ArrayList<>();

  /** One Watch call: whether it is held, and how to tell the server it is ready again. */
  private static final class Watch {
    volatile boolean held;
    Runnable ready;
  }

  /** From now on, lets {@code count} Queries through and holds the one after, until {@link #release()}. */
  public synchronized void holdQueryAfter(int count) {
    queriesToPass = count;
  }

  /**
   * The Watch streams open now look not ready to the server until {@link #release()} (streams
   * opened later are not held).
   */
  public synchronized void holdWatches() {
    watches.forEach(w -> w.held = true);
  }

  /** Waits until a Query is held. */
  public synchronized void awaitQueryHeld(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!queryHeld) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError("no Query was held within " + timeout);
      }
      wait(Math.max(1, left / 1_000_000));
    }
  }

  /** Lets the held Query go on, and tells the server that held Watch streams are ready again. */
  public void release() {
    List<Watch> released = new ArrayList<>();
    synchronized (this) {
      queriesToPass = -1;
      for (Watch watch : watches) {
        if (watch.held) {
          watch.held = false;
          released.add(watch);
        }
      }
      notifyAll();
    }
    released.forEach(w -> w.ready.run());
  }

  @Override
  public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
      ServerCallHandler<Q, A> next) {
    String method = call.getMethodDescriptor().getFullMethodName();
    if (method.equals(QUERY)) {
      waitIfHeld();
      return next.startCall(call, headers);
    }
    if (!method.equals(WATCH)) {
      return next.startCall(call, headers);
    }
    Watch watch = new Watch();
    ServerCall<Q, A> gated = new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
      @Override
      public boolean isReady() {
        return !watch.held && super.isReady();
      }
    };
    ServerCall.Listener<Q> listener = next.startCall(gated, headers);
    watch.ready = listener::onReady;
    synchronized (this) {
      watches.add(watch);
    }
    return listener;
  }

  private synchronized void waitIfHeld() {
    if (queriesToPass < 0) {
      return;
    }
    if (queriesToPass > 0) {
      queriesToPass--;
      return;
    }
    queryHeld = true;
    notifyAll();
    try {
      while (queriesToPass == 0) {
        wait();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
