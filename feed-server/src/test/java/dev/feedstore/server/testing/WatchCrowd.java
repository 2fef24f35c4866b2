package dev.feedstore.server.testing;

import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.testing.Await;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.Context;
import io.grpc.Metadata;
import io.grpc.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Many Watch streams opened on one channel, each cancellable by the test. Not thread-safe. */
public final class WatchCrowd {
  private final List<EventRecorder<WatchEvent>> streams = new ArrayList<>();
  private final List<Context.CancellableContext> contexts = new ArrayList<>();

  /** Opens {@code count} streams of {@code request} on {@code channel}; does not wait for them. */
  public static WatchCrowd open(Channel channel, WatchRequest request, int count) {
    WatchCrowd crowd = new WatchCrowd();
    FeedSyncGrpc.FeedSyncStub stub = FeedSyncGrpc.newStub(channel);
    for (int i = 0; i < count; i++) {
      EventRecorder<WatchEvent> events = new EventRecorder<>();
      Context.CancellableContext context = Context.current().withCancellation();
      context.run(() -> stub.watch(request, events));
      crowd.streams.add(events);
      crowd.contexts.add(context);
    }
    return crowd;
  }

  /**
   * Opens {@code count} streams whose reader never asks for a message, so that gRPC's flow control
   * soon tells the server to stop sending; the streams end only when the test drops them
   * ({@link #drop}).
   */
  public static List<ClientCall<WatchRequest, WatchEvent>> openStalled(Channel channel, WatchRequest request, int count) {
    List<ClientCall<WatchRequest, WatchEvent>> calls = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ClientCall<WatchRequest, WatchEvent> call = channel.newCall(FeedSyncGrpc.getWatchMethod(), CallOptions.DEFAULT);
      call.start(new ClientCall.Listener<>() {}, new Metadata());
      call.sendMessage(request);
      call.halfClose();
      calls.add(call);
    }
    return calls;
  }

  /**
   * Ends streams that {@link #openStalled} opened: reads what each holds and cancels it. A call
   * whose connection is gone keeps the messages it received until they are read, and a cancel,
   * which gRPC sends through the connection, never reaches them; dropped unread, they would leave
   * pooled buffers of the transport to the garbage collector, which Netty reports as leaks.
   */
  public static void drop(List<ClientCall<WatchRequest, WatchEvent>> calls) {
    for (ClientCall<WatchRequest, WatchEvent> call : calls) {
      call.request(Integer.MAX_VALUE);
      call.cancel("dropped by the test", null);
    }
  }

  /** Waits (60 s at most) until every stream has sent an event or ended. */
  public void awaitAnswered() {
    awaitAnswered(Duration.ofSeconds(60));
  }

  /** Waits until every stream has sent an event or ended. */
  public void awaitAnswered(Duration timeout) {
    Await.until("every stream of the crowd answered", timeout,
        () -> streams.stream().allMatch(s -> s.pending() > 0 || s.ended()));
  }

  /** Waits until every stream has received at least {@code events} events (none consumed). */
  public void awaitEvents(int events) {
    Await.until("every stream of the crowd received " + events + " events", Duration.ofSeconds(60),
        () -> streams.stream().allMatch(s -> s.pending() >= events));
  }

  /** How many streams ended, with any status. */
  public long ended() {
    return streams.stream().filter(EventRecorder::ended).count();
  }

  /** The status of every stream that ended with {@code code}. */
  public long endedWith(Status.Code code) {
    return streams.stream().filter(EventRecorder::ended).filter(s -> s.awaitEnd().getCode() == code).count();
  }

  /** The status of every stream that ended. */
  public List<Status> endStatuses() {
    return streams.stream().filter(EventRecorder::ended).map(EventRecorder::awaitEnd).toList();
  }

  /** Cancels every stream from the client's side. */
  public void cancelAll() {
    contexts.forEach(c -> c.cancel(null));
  }

  public int size() {
    return streams.size();
  }
}
