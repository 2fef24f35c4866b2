package dev.feedstore.bench;

import com.google.protobuf.ByteString;
import dev.feedstore.core.FeedId;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.AppendResponse;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import io.grpc.stub.StreamObserver;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Recorder;

/** Appends blocks of one feed to {@code space}, carrying the time they were due in their first 8 bytes. */
final class FanoutAppender {
  private final String space;
  private final FeedSyncGrpc.FeedSyncBlockingStub blocking;
  private final FeedSyncGrpc.FeedSyncStub async;
  private final String feed = FeedId.generate().value();
  final AtomicLong failures = new AtomicLong();
  /** From when an append was due to its answer, in microseconds. */
  final Recorder acks = new Recorder(TimeUnit.SECONDS.toMicros(60), 3);
  private long sequence;

  FanoutAppender(String space, FeedSyncGrpc.FeedSyncBlockingStub blocking) {
    this.space = space;
    this.blocking = blocking;
    this.async = FeedSyncGrpc.newStub(blocking.getChannel());
  }

  void append(int count, long due) {
    blocking.append(request(count, due));
  }

  void appendAsync(int count, long due) {
    async.append(request(count, due), new StreamObserver<>() {
      @Override
      public void onNext(AppendResponse value) {
        acks.recordValue(Math.max(0, TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - due)));
      }

      @Override
      public void onError(Throwable t) {
        failures.incrementAndGet();
      }

      @Override
      public void onCompleted() {}
    });
  }

  private synchronized AppendRequest request(int count, long due) {
    byte[] data = new byte[AppendWorkload.DATA_BYTES];
    ByteBuffer.wrap(data).putLong(due);
    ByteString bytes = ByteString.copyFrom(data);
    AppendRequest.Builder request = AppendRequest.newBuilder().setSpaceId(space).setRequestId("f" + sequence);
    for (int i = 0; i < count; i++) {
      Block.Builder block = Block.newBuilder().setFeedId(feed).setActorId("fan-writer").setSequence(sequence)
          .setTimestamp(System.currentTimeMillis()).setData(bytes);
      if (sequence > 0) {
        block.setPrevActorId("fan-writer").setPrevSequence(sequence - 1);
      }
      request.addBlocks(block);
      sequence++;
    }
    return request.build();
  }
}
