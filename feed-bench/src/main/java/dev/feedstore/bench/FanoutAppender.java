package dev.feedstore.bench;

import com.google.protobuf.ByteString;
import dev.feedstore.core.FeedId;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.AppendResponse;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import io.grpc.stub.StreamObserver;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Recorder;

/**
 * Appends blocks of one feed to {@code space}, carrying the time they were due: as the 8 bytes of a
 * long at their start ({@link #BINARY}), as {@value #DUE_HEX} hexadecimal digits followed by ASCII
 * text, for a text stream's readers ({@link #TEXT}), or as another {@link Content} writes it.
 * Thread-safe.
 */
final class FanoutAppender {
  /** The hexadecimal digits of the due time at the start of a text block. */
  static final int DUE_HEX = 16;

  /** What a block carries, written from its sequence in the feed (from 0) and the time it was due. */
  @FunctionalInterface
  interface Content {
    byte[] data(long sequence, long due);
  }

  /** {@link AppendWorkload#DATA_BYTES} bytes starting with the due time as a big-endian long. */
  static final Content BINARY = (sequence, due) -> {
    byte[] data = new byte[AppendWorkload.DATA_BYTES];
    ByteBuffer.wrap(data).putLong(due);
    return data;
  };

  /** {@link AppendWorkload#DATA_BYTES} ASCII characters: the due time in {@value #DUE_HEX} hex digits, then x. */
  static final Content TEXT = (sequence, due) -> {
    byte[] data = new byte[AppendWorkload.DATA_BYTES];
    Arrays.fill(data, (byte) 'x');
    byte[] hex = String.format("%016x", due).getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(hex, 0, data, 0, DUE_HEX);
    return data;
  };

  private final String space;
  private final FeedSyncGrpc.FeedSyncBlockingStub blocking;
  private final FeedSyncGrpc.FeedSyncStub async;
  private final String feed;
  private final Optional<String> namespace;
  private final Content content;
  final AtomicLong failures = new AtomicLong();
  /** From when an append was due to its answer, in microseconds. */
  final Recorder acks = new Recorder(TimeUnit.SECONDS.toMicros(60), 3);
  private long sequence;

  FanoutAppender(String space, FeedSyncGrpc.FeedSyncBlockingStub blocking) {
    this(space, FeedId.generate(), Optional.empty(), BINARY, blocking);
  }

  /**
   * @param namespace the namespace the feed is created in, if any
   * @param content what each block carries
   */
  FanoutAppender(String space, FeedId feed, Optional<String> namespace, Content content,
      FeedSyncGrpc.FeedSyncBlockingStub blocking) {
    this.space = space;
    this.feed = feed.value();
    this.namespace = namespace;
    this.content = content;
    this.blocking = blocking;
    this.async = FeedSyncGrpc.newStub(blocking.getChannel());
  }

  /** The sequence the next block appended gets: the blocks appended so far. */
  synchronized long nextSequence() {
    return sequence;
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
    AppendRequest.Builder request = AppendRequest.newBuilder().setSpaceId(space).setRequestId("f" + sequence);
    namespace.ifPresent(request::setNamespace);
    for (int i = 0; i < count; i++) {
      Block.Builder block = Block.newBuilder().setFeedId(feed).setActorId("fan-writer").setSequence(sequence)
          .setTimestamp(System.currentTimeMillis()).setData(ByteString.copyFrom(content.data(sequence, due)));
      if (sequence > 0) {
        block.setPrevActorId("fan-writer").setPrevSequence(sequence - 1);
      }
      request.addBlocks(block);
      sequence++;
    }
    return request.build();
  }
}
