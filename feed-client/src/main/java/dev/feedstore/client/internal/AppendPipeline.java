package dev.feedstore.client.internal;

import dev.feedstore.proto.StreamRefusals;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.AppendResponse;
import dev.feedstore.proto.v1.AppendStreamResponse;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import io.grpc.Channel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Appends kept in flight on one connection: each {@link #send} goes out on an {@code AppendStream}
 * at once, without waiting for the answers of those before it, and its future completes with its
 * answer, once committed, in the order sent. At most {@code maxInFlight} calls are in flight: a
 * send beyond that waits for the oldest answer.
 *
 * <p>The authority commits the appends of one feed in the order sent, and once one is refused it
 * refuses the later ones of that stream naming its feeds with {@code ABORTED}, including those sent
 * after the refusal was answered: they were made without knowing of it. Once the caller has handled
 * the refusal it calls {@link #restart}: the next send waits until every call in flight is answered,
 * then opens a new stream, on which the authority holds no refusal. A stream with nothing in flight
 * and no refusal is ended, so that none stays open on the authority between bursts.
 *
 * <p>A failure of the stream itself (the connection lost, the authority stopping) fails every call
 * in flight with its status; those calls may or may not have committed. {@link #await} bounds the
 * wait for one answer by the call deadline and, past it, cancels the stream.
 *
 * <p>Thread-safe; futures complete on gRPC's threads.
 */
public final class AppendPipeline implements AutoCloseable {
  private final FeedSyncGrpc.FeedSyncStub stub;
  private final int maxInFlight;
  private final String maxInFlightName;
  private final Duration deadline;
  /** Guarded by this: the stream sends go to, or null before the first and after a failure. */
  private Stream current;
  /** Guarded by this: calls sent and not answered, on every stream. */
  private int inFlight;
  /** Guarded by this: {@link #close} was called. */
  private boolean closed;

  /**
   * @param maxInFlight the most calls in flight at once
   * @param maxInFlightName the name of the setting that says {@code maxInFlight}, for errors
   * @param deadline how long {@link #await} waits for one answer
   */
  public AppendPipeline(Channel channel, int maxInFlight, String maxInFlightName, Duration deadline) {
    if (maxInFlight < 1) {
      throw new IllegalArgumentException(maxInFlightName + " must be >= 1, was " + maxInFlight);
    }
    this.stub = FeedSyncGrpc.newStub(channel);
    this.maxInFlight = maxInFlight;
    this.maxInFlightName = maxInFlightName;
    this.deadline = deadline;
  }

  /** The most calls in flight at once. */
  public int maxInFlight() {
    return maxInFlight;
  }

  /**
   * Sends the append on the current stream (opening one when there is none, after the calls of a
   * retired one are answered), waiting first while {@link #maxInFlight} calls are in flight.
   *
   * @return the answer, or a {@link StatusRuntimeException} as a unary Append would have failed with
   * @throws IllegalStateException if the pipeline is closed
   */
  public CompletableFuture<AppendResponse> send(AppendRequest request) {
    CompletableFuture<AppendResponse> answer = new CompletableFuture<>();
    Stream stream;
    synchronized (this) {
      while (!closed && (inFlight >= maxInFlight || (current == null && inFlight > 0))) {
        awaitRoom();
      }
      if (closed) {
        throw new IllegalStateException("the append pipeline is closed");
      }
      if (current == null) {
        Stream opened = new Stream();
        stub.appendStream(opened);
        current = opened;
      }
      stream = current;
      inFlight++;
      stream.pending.add(answer);
      // Sent under the lock, so that the stream's requests go out in the order of their answers.
      stream.call.onNext(request);
    }
    return answer;
  }

  /**
   * The outcome of a call sent here (or of what its answer was turned into), waiting at most the
   * call deadline; past it the stream is cancelled, which fails every call in flight.
   *
   * @throws RuntimeException the call's failure: a {@link StatusRuntimeException} for an answer of
   *     the authority or of gRPC ({@code CANCELLED} past the deadline), or what it was turned into
   */
  public <T> T await(CompletableFuture<T> answer) {
    try {
      return answer.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException failure) {
        throw failure;
      }
      throw Status.INTERNAL.withDescription("the append failed: " + e.getCause()).withCause(e.getCause())
          .asRuntimeException();
    } catch (TimeoutException e) {
      cancel("no answer within the call deadline of " + deadline.toMillis() + " ms");
      return await(answer);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      cancel("the waiting thread was interrupted");
      throw Status.CANCELLED.withDescription("interrupted while waiting for an append's answer").asRuntimeException();
    }
  }

  /**
   * For a caller that has handled the refusals it was told of: the next send goes out on a new
   * stream, once the calls in flight are answered, so that the authority aborts nothing of it for
   * an earlier refusal.
   */
  public void restart() {
    synchronized (this) {
      if (current != null) {
        current.retire();
      }
    }
  }

  /** Ends the current stream after the calls in flight are answered; sends after this fail. */
  @Override
  public void close() {
    synchronized (this) {
      closed = true;
      if (current != null) {
        current.call.onCompleted();
        current = null;
      }
      notifyAll();
    }
  }

  private void cancel(String why) {
    Stream stream;
    synchronized (this) {
      stream = current;
    }
    if (stream != null) {
      stream.call.cancel(why, null);
    }
  }

  private void awaitRoom() {
    try {
      wait();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while " + maxInFlight + " appends (" + maxInFlightName
          + ") were in flight", e);
    }
  }

  /** One AppendStream: its calls in flight, oldest first. */
  private final class Stream implements ClientResponseObserver<AppendRequest, AppendStreamResponse> {
    /** Guarded by the pipeline. */
    final ArrayDeque<CompletableFuture<AppendResponse>> pending = new ArrayDeque<>();
    ClientCallStreamObserver<AppendRequest> call;
    /** Guarded by the pipeline: the authority refused a call of this stream. */
    boolean refused;

    @Override
    public void beforeStart(ClientCallStreamObserver<AppendRequest> requestStream) {
      call = requestStream;
    }

    @Override
    public void onNext(AppendStreamResponse answer) {
      CompletableFuture<AppendResponse> oldest;
      synchronized (AppendPipeline.this) {
        oldest = pending.poll();
        if (oldest == null) {
          return; // an answer to nothing sent: the stream's failure follows
        }
        inFlight--;
        refused |= answer.hasRefused();
        if (pending.isEmpty() && !refused) {
          retire();
        }
        AppendPipeline.this.notifyAll();
      }
      if (answer.hasRefused()) {
        oldest.completeExceptionally(StreamRefusals.toStatus(answer.getRefused()));
      } else {
        oldest.complete(answer.getAppended());
      }
    }

    @Override
    public void onError(Throwable failure) {
      StatusRuntimeException status = Status.fromThrowable(failure).asRuntimeException(Status.trailersFromThrowable(failure));
      end(status);
    }

    @Override
    public void onCompleted() {
      end(Status.INTERNAL.withDescription("the authority ended the append stream with calls unanswered")
          .asRuntimeException());
    }

    private void end(StatusRuntimeException status) {
      ArrayDeque<CompletableFuture<AppendResponse>> failed;
      synchronized (AppendPipeline.this) {
        failed = new ArrayDeque<>(pending);
        pending.clear();
        inFlight -= failed.size();
        if (current == this) {
          current = null;
        }
        AppendPipeline.this.notifyAll();
      }
      failed.forEach(answer -> answer.completeExceptionally(status));
    }

    /** No more sends on this stream: it ends once its calls are answered. Under the pipeline's lock. */
    private void retire() {
      if (current == this) {
        current = null;
        call.onCompleted();
      }
    }
  }
}
