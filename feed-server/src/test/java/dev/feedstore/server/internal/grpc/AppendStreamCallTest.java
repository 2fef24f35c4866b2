package dev.feedstore.server.internal.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.AppendResponse;
import dev.feedstore.proto.v1.AppendStreamResponse;
import io.grpc.StatusException;
import io.grpc.stub.ServerCallStreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * One AppendStream call with its appends answered by the test in any order: the answers go out in
 * the stream's order, and the call reads no more than its window ahead of them.
 */
class AppendStreamCallTest {
  final RecordingCall call = new RecordingCall();
  final List<BiConsumer<AppendResponse, StatusException>> answers = new ArrayList<>();

  @Test
  void answersGoOutInTheStreamsOrderAndTheCallReadsNoMoreThanItsWindowAhead() {
    AppendStreamCall stream = AppendStreamCall.start(call, 2, Runnable::run, request -> false,
        (request, order, answer) -> answers.add(answer), request -> null);
    assertTrue(call.autoRequestDisabled);
    assertEquals(2, call.requested, "the window");

    stream.onNext(request("r0"));
    stream.onNext(request("r1"));
    answers.get(1).accept(AppendResponse.newBuilder().setRequestId("r1").addPositions(2).build(), null);

    assertEquals(List.of(), call.sent, "r1 waits for r0");
    assertEquals(2, call.requested, "nothing more is read while both are unanswered");

    answers.get(0).accept(AppendResponse.newBuilder().setRequestId("r0").addPositions(1).build(), null);

    assertEquals(List.of("r0", "r1"), call.sent.stream().map(AppendStreamResponse::getRequestId).toList());
    assertEquals(4, call.requested, "one more request read per answer");
    assertFalse(call.completed);
    stream.onCompleted();
    assertTrue(call.completed, "the call ends once every request is answered and the client is done");
  }

  private static AppendRequest request(String id) {
    return AppendRequest.newBuilder().setRequestId(id).setSpaceId("s").build();
  }

  /** The server side of a call, recording what the stream does with it. */
  private static final class RecordingCall extends ServerCallStreamObserver<AppendStreamResponse> {
    final List<AppendStreamResponse> sent = new ArrayList<>();
    int requested;
    boolean autoRequestDisabled;
    boolean completed;

    @Override
    public boolean isCancelled() {
      return false;
    }

    @Override
    public void setOnCancelHandler(Runnable handler) {
    }

    @Override
    public void setCompression(String compression) {
    }

    @Override
    public boolean isReady() {
      return true;
    }

    @Override
    public void setOnReadyHandler(Runnable handler) {
    }

    @Override
    public void disableAutoInboundFlowControl() {
      autoRequestDisabled = true;
    }

    @Override
    public void disableAutoRequest() {
      autoRequestDisabled = true;
    }

    @Override
    public void request(int count) {
      requested += count;
    }

    @Override
    public void setMessageCompression(boolean enable) {
    }

    @Override
    public void onNext(AppendStreamResponse value) {
      sent.add(value);
    }

    @Override
    public void onError(Throwable t) {
      throw new AssertionError("the call failed", t);
    }

    @Override
    public void onCompleted() {
      completed = true;
    }
  }
}
