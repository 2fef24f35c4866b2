package dev.feedstore.server.internal.grpc;

import dev.feedstore.proto.StreamRefusals;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.AppendResponse;
import dev.feedstore.proto.v1.AppendStreamResponse;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.server.internal.authority.AppendOrder;
import io.grpc.Context;
import io.grpc.StatusException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One {@code AppendStream} call: a writer's Appends, kept in flight on one stream. Each request is
 * submitted in the stream's order, as the next append of the stream's {@link AppendOrder} (so the
 * appends of one feed commit in that order, and those after a refused one are refused), and answered
 * in the stream's order, each once it is settled. The server reads at most {@code window} requests
 * ahead of its answers ({@code append-stream-window}): the client's further requests wait in
 * HTTP/2's flow control. The answers of a client that went away are dropped; its appends already
 * read still commit.
 *
 * <p>A request that may block (a large one, or one that loads a space: {@code mayBlock}) is
 * submitted from the request executor, and the requests after it wait for it there, so the order
 * holds; the others are submitted on the thread they arrived on.
 *
 * <p>Thread-safe: requests arrive on gRPC's serialized callbacks, answers on the threads that
 * answer the groups; the response stream is written under this call's lock.
 */
final class AppendStreamCall implements StreamObserver<AppendRequest> {
  /** Submits one request as the next append of {@code order}; {@code answer} gets the response or the refusal. */
  interface Appender {
    void append(AppendRequest request, AppendOrder order, BiConsumer<AppendResponse, StatusException> answer);
  }

  /** A request read and not answered yet; {@code answer} once settled. */
  private static final class Slot {
    final String requestId;
    AppendStreamResponse answer;

    Slot(String requestId) {
      this.requestId = requestId;
    }
  }

  private record Waiting(AppendRequest request, Slot slot) {}

  private final ServerCallStreamObserver<AppendStreamResponse> call;
  private final Executor requests;
  private final Predicate<AppendRequest> mayBlock;
  private final Appender appender;
  private final Function<AppendRequest, StatusException> shuttingDown;
  private final AppendOrder order = new AppendOrder();
  /** Guarded by this: the requests read and not answered, in the stream's order. */
  private final ArrayDeque<Slot> unanswered = new ArrayDeque<>();
  /** Guarded by this: requests waiting to be submitted from the request executor, in order. */
  private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
  /** Guarded by this: whether the request executor is submitting {@link #waiting} requests. */
  private boolean draining;
  /** Guarded by this: the client sent its last request. */
  private boolean halfClosed;
  /** Guarded by this: the call ended (completed, or cancelled by the client). */
  private boolean ended;

  private AppendStreamCall(ServerCallStreamObserver<AppendStreamResponse> call, Executor requests,
      Predicate<AppendRequest> mayBlock, Appender appender, Function<AppendRequest, StatusException> shuttingDown) {
    this.call = call;
    this.requests = requests;
    this.mayBlock = mayBlock;
    this.appender = appender;
    this.shuttingDown = shuttingDown;
  }

  /**
   * Starts the call: reads {@code window} requests ahead of the answers.
   *
   * @param shuttingDown the refusal of a request the request executor did not take
   */
  static AppendStreamCall start(ServerCallStreamObserver<AppendStreamResponse> call, int window, Executor requests,
      Predicate<AppendRequest> mayBlock, Appender appender, Function<AppendRequest, StatusException> shuttingDown) {
    AppendStreamCall stream = new AppendStreamCall(call, requests, mayBlock, appender, shuttingDown);
    call.disableAutoRequest();
    call.setOnCancelHandler(stream::cancelled);
    call.request(window);
    return stream;
  }

  @Override
  public void onNext(AppendRequest request) {
    Slot slot = new Slot(request.getRequestId());
    boolean now;
    synchronized (this) {
      unanswered.add(slot);
      now = !draining && !mayBlock.test(request);
      if (!now) {
        waiting.add(new Waiting(request, slot));
        if (draining) {
          return;
        }
        draining = true;
      }
    }
    if (now) {
      submit(request, slot);
      return;
    }
    try {
      requests.execute(Context.current().wrap(this::drain));
    } catch (RejectedExecutionException e) {
      refuseWaiting();
    }
  }

  @Override
  public void onError(Throwable failure) {
    cancelled();
  }

  @Override
  public void onCompleted() {
    synchronized (this) {
      halfClosed = true;
      flush();
    }
  }

  private void submit(AppendRequest request, Slot slot) {
    appender.append(request, order, (response, refusal) -> answer(slot, response, refusal));
  }

  /** Submits the waiting requests in order, on the request executor. */
  private void drain() {
    while (true) {
      Waiting next;
      synchronized (this) {
        next = waiting.poll();
        if (next == null) {
          draining = false;
          return;
        }
      }
      submit(next.request(), next.slot());
    }
  }

  /** The request executor takes no more work (the server is stopping): refuses what waits for it. */
  private void refuseWaiting() {
    List<Waiting> refused;
    synchronized (this) {
      refused = List.copyOf(waiting);
      waiting.clear();
      draining = false;
    }
    for (Waiting one : refused) {
      order.refuse(one.request().getSpaceId(),
          one.request().getBlocksList().stream().map(Block::getFeedId).toList());
      answer(one.slot(), null, shuttingDown.apply(one.request()));
    }
  }

  private void answer(Slot slot, AppendResponse response, StatusException refusal) {
    AppendStreamResponse.Builder answer = AppendStreamResponse.newBuilder().setRequestId(slot.requestId);
    if (refusal != null) {
      answer.setRefused(StreamRefusals.toWire(refusal));
    } else {
      answer.setAppended(response);
    }
    synchronized (this) {
      slot.answer = answer.build();
      flush();
    }
  }

  /** Sends the answers due in order, reading one more request for each; ends the call once all are sent. */
  private void flush() {
    while (!unanswered.isEmpty() && unanswered.peek().answer != null) {
      AppendStreamResponse answer = unanswered.poll().answer;
      if (!ended) {
        call.onNext(answer);
        call.request(1);
      }
    }
    if (halfClosed && unanswered.isEmpty() && !ended) {
      ended = true;
      call.onCompleted();
    }
  }

  private synchronized void cancelled() {
    ended = true;
  }
}
