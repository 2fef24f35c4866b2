package dev.feedstore.server.testing;

import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Records what a stream delivers, for tests to take in order with deadlines. Thread-safe. */
public final class EventRecorder<T> implements StreamObserver<T> {
  private final BlockingQueue<T> events = new LinkedBlockingQueue<>();
  private final CompletableFuture<Status> end = new CompletableFuture<>();
  private volatile Metadata trailers = new Metadata();

  @Override
  public void onNext(T value) {
    events.add(value);
  }

  @Override
  public void onError(Throwable t) {
    Metadata received = Status.trailersFromThrowable(t);
    if (received != null) {
      trailers = received;
    }
    end.complete(Status.fromThrowable(t));
  }

  @Override
  public void onCompleted() {
    end.complete(Status.OK);
  }

  /** The next event; fails if none comes within 20 s. */
  public T next() {
    return next(Duration.ofSeconds(20));
  }

  public T next(Duration timeout) {
    try {
      T event = events.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (event == null) {
        throw new AssertionError("no event within " + timeout + (end.isDone() ? "; stream ended with " + end.join() : ""));
      }
      return event;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Events received and not taken yet. */
  public int pending() {
    return events.size();
  }

  public boolean ended() {
    return end.isDone();
  }

  /** The status the stream ended with, with its trailers; fails if it does not end within 20 s. */
  public io.grpc.StatusRuntimeException awaitEndWithTrailers() {
    Status status = awaitEnd();
    return status.asRuntimeException(trailers);
  }

  /** The status the stream ended with; fails if it does not end within 20 s. */
  public Status awaitEnd() {
    try {
      return end.get(20, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    } catch (ExecutionException | TimeoutException e) {
      throw new AssertionError("the stream did not end within 20 s", e);
    }
  }
}
