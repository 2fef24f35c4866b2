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

/**
 * Appends blocks of one feed to {@code space}, carrying the time they were due at their start: as
 * the 8 bytes of a long ({@link #FanoutAppender(String, FeedSyncGrpc.FeedSyncBlockingStub)}), or as
 * {@value #DUE_HEX} hexadecimal digits followed by ASCII text, for a text stream's readers. Thread-safe.
 */
final class FanoutAppender {
  /** The hexadecimal digits of the due time at the start of a text block. */
  static final int DUE_HEX = 16;

  private final String space;
  private final FeedSyncGrpc.FeedSyncBlockingStub blocking;
  private final FeedSyncGrpc.FeedSyncStub async;
  private final String feed;
  private final boolean text;
  final AtomicLong failures = new AtomicLong();
  /** From when an append was due to its answer, in microseconds. */
  final Recorder acks = new Recorder(TimeUnit.SECONDS.toMicros(60), 3);
  private long sequence;

  FanoutAppender(String space, FeedSyncGrpc.FeedSyncBlockingStub blocking) {
    this(space, FeedId.generate(), false, blocking);
  }

  /** @param text the blocks carry their due time as text ({@value #DUE_HEX} hex digits), not as a long */
  FanoutAppender(String space, FeedId feed, boolean text, FeedSyncGrpc.FeedSyncBlockingStub blocking) {
    this.space = space;
    this.feed = feed.value();
    this.text = text;
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
    if (text) {
      java.util.Arrays.fill(data, (byte) 'x');
      byte[] hex = String.format("%016x", due).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      System.arraycopy(hex, 0, data, 0, DUE_HEX);
    } else {
      ByteBuffer.wrap(data).putLong(due);
    }
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
