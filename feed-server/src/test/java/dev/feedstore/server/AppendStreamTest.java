package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.StreamRefusals;
import dev.feedstore.proto.WireErrors;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.AppendStreamResponse;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * AppendStream over real gRPC on loopback: every request answered in the stream's order once
 * committed, a refusal carried with the status and trailers a unary Append ends with, the later
 * requests of a refused feed aborted, and an empty stream ended cleanly.
 */
class AppendStreamTest {
  @TempDir Path dir;
  TestServer t;
  final FeedId feed = TestBlocks.feedId();
  final FeedId other = TestBlocks.feedId();

  @AfterEach
  void stop() {
    if (t != null) {
      t.close();
    }
  }

  @Test
  void everyRequestIsAnsweredInTheStreamsOrderWithItsPositions() throws Exception {
    t = TestServer.on(dir.resolve("feeds.db")).loopback().start();
    List<AppendRequest> requests = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      requests.add(Wire.append("s", Wire.block(i % 2 == 0 ? feed : other, "a", i / 2)).toBuilder()
          .setRequestId("r" + i).build());
    }

    List<AppendStreamResponse> answers = stream(requests);

    assertEquals(200, answers.size());
    for (int i = 0; i < 200; i++) {
      assertEquals("r" + i, answers.get(i).getRequestId());
      assertEquals(List.of(i + 1L), answers.get(i).getAppended().getPositionsList(), "request " + i);
    }
  }

  @Test
  void aRefusalCarriesItsStatusAndTheLaterRequestsOfItsFeedAreAborted() throws Exception {
    t = TestServer.on(dir.resolve("feeds.db")).loopback().start();
    t.blocking().append(Wire.append("s", Wire.block(feed, "a", 0, "theirs")));

    List<AppendStreamResponse> answers = stream(List.of(
        Wire.append("s", Wire.block(feed, "a", 0, "mine")).toBuilder().setRequestId("conflict").build(),
        Wire.append("s", Wire.block(feed, "a", 1)).toBuilder().setRequestId("after").build(),
        Wire.append("s", Wire.block(other, "a", 0)).toBuilder().setRequestId("elsewhere").build()));

    StatusRuntimeException conflict = StreamRefusals.toStatus(answers.get(0).getRefused());
    assertEquals(Status.Code.ALREADY_EXISTS, conflict.getStatus().getCode());
    assertEquals(feed.value(), conflict.getTrailers().get(WireErrors.APPEND_CONFLICT).getKeys(0).getFeedId());
    StatusRuntimeException aborted = StreamRefusals.toStatus(answers.get(1).getRefused());
    assertEquals(Status.Code.ABORTED, aborted.getStatus().getCode());
    assertTrue(aborted.getStatus().getDescription().contains("send it again on a new stream"),
        aborted.getStatus().getDescription());
    assertEquals(List.of(2L), answers.get(2).getAppended().getPositionsList());
    assertEquals(2, t.blocking().query(QueryRequest.newBuilder().setSpaceId("s").setLimit(10).build())
        .getBlocksCount(), "nothing of the aborted request was stored");
  }

  @Test
  void aStreamWithoutRequestsEndsCleanly() throws Exception {
    t = TestServer.on(dir.resolve("feeds.db")).loopback().start();

    assertEquals(List.of(), stream(List.of()));
  }

  /** Sends the requests on one stream, half-closes it, and returns the answers once it ends. */
  private List<AppendStreamResponse> stream(List<AppendRequest> requests) throws Exception {
    List<AppendStreamResponse> answers = new ArrayList<>();
    CompletableFuture<List<AppendStreamResponse>> ended = new CompletableFuture<>();
    StreamObserver<AppendRequest> call = t.async().appendStream(new StreamObserver<>() {
      @Override
      public void onNext(AppendStreamResponse answer) {
        answers.add(answer);
      }

      @Override
      public void onError(Throwable failure) {
        ended.completeExceptionally(failure);
      }

      @Override
      public void onCompleted() {
        ended.complete(answers);
      }
    });
    requests.forEach(call::onNext);
    call.onCompleted();
    return ended.get(60, TimeUnit.SECONDS);
  }
}
