package dev.feedstore.server.internal.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.query.result.ChangeBatch;
import dev.feedstore.proto.v1.LiveQueryEvent;
import dev.feedstore.server.internal.queries.QueryBatch;
import dev.feedstore.server.internal.queries.ResumeToken;
import dev.feedstore.server.internal.spaces.Encodings;
import io.grpc.stub.ServerCallStreamObserver;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A change batch of a shared query goes to every LiveQuery call as one encoding: the same frame, whose
 * bytes read as the event the batch stands for.
 */
class GrpcQuerySinkTest {
  @Test
  void aChangeBatchIsEncodedOnceForEveryCallThatSendsIt() throws Exception {
    ResumeToken stamp = new ResumeToken(7, 2, "hash", "token");
    QueryBatch batch = new QueryBatch(1, stamp, ChangeBatch.between(List.of(), List.of()), new Encodings());
    Recording first = new Recording();
    Recording second = new Recording();
    new GrpcQuerySink("a", first).changes(batch);
    new GrpcQuerySink("b", second).changes(batch);

    assertEquals(1, first.sent.size());
    assertSame(first.sent.get(0), second.sent.get(0), "one encoding for both calls");
    try (InputStream bytes = LiveQueryFrame.MARSHALLER.stream(first.sent.get(0))) {
      LiveQueryEvent event = LiveQueryEvent.parseFrom(bytes);
      assertEquals(7, event.getPosition());
      assertEquals("token", event.getServerToken());
      assertEquals(stamp.text(), event.getResumeToken());
      assertTrue(event.hasChanges(), event.toString());
    }
  }

  /** A call that records what is sent on it. */
  private static final class Recording extends ServerCallStreamObserver<LiveQueryFrame> {
    final List<LiveQueryFrame> sent = new ArrayList<>();

    @Override
    public void onNext(LiveQueryFrame value) {
      sent.add(value);
    }

    @Override
    public void onError(Throwable t) {
      throw new AssertionError("ended", t);
    }

    @Override
    public void onCompleted() {
      throw new AssertionError("completed");
    }

    @Override
    public boolean isCancelled() {
      return false;
    }

    @Override
    public void setOnCancelHandler(Runnable onCancelHandler) {}

    @Override
    public void setCompression(String compression) {}

    @Override
    public boolean isReady() {
      return true;
    }

    @Override
    public void setOnReadyHandler(Runnable onReadyHandler) {}

    @Override
    public void request(int count) {}

    @Override
    public void setMessageCompression(boolean enable) {}

    @Override
    public void disableAutoInboundFlowControl() {}
  }
}
