package dev.feedstore.bench;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.WatchRequest;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Recorder;

/**
 * Watch streams of a benchmark with their events left as bytes ({@link RawStream}): each counts the
 * blocks it receives and records how late each arrived, reading only the due time in the block's
 * data ({@link BlockDue}). Thread-safe: a stream's callbacks are serialized by gRPC, its counters
 * are atomic.
 */
final class WatchStreams {
  private static final MethodDescriptor<WatchRequest, byte[]> RAW_WATCH =
      RawStream.method(FeedSyncGrpc.getWatchMethod(), WatchRequest.getDefaultInstance());

  private WatchStreams() {}

  /** Reads the due time out of a block's data, consuming exactly its {@code length} bytes; 0 for none. */
  @FunctionalInterface
  interface BlockDue {
    long read(CodedInputStream in, int length) throws IOException;
  }

  /** The due time as the big-endian long of the data's first 8 bytes ({@link FanoutAppender#BINARY}). */
  static final BlockDue BINARY = (in, length) -> {
    long due = length >= 8 ? Long.reverseBytes(in.readRawLittleEndian64()) : 0;
    in.skipRawBytes(length >= 8 ? length - 8 : length);
    return due;
  };

  /** One Watch stream, counting blocks and recording their delivery delay. */
  static final class Watcher extends RawStream {
    final Recorder recorder;
    final AtomicLong blocks = new AtomicLong();
    private final BlockDue due;

    Watcher(Recorder recorder, BlockDue due) {
      this.recorder = recorder;
      this.due = due;
    }

    @Override
    void read(CodedInputStream in, int tag, long now) throws IOException {
      switch (WireFormat.getTagFieldNumber(tag)) {
        case 4 -> readBatch(in, now); // WatchEvent.blocks
        case 5 -> { // WatchEvent.caught_up
          in.skipField(tag);
          live.countDown();
        }
        default -> in.skipField(tag);
      }
    }

    /** A BlockBatch: for each Block, the due time in its data. */
    private void readBatch(CodedInputStream in, long now) throws IOException {
      // The blocks of one append share their due time: their delays are recorded once per run of them.
      long runDue = 0;
      long runLength = 0;
      long count = 0;
      int batch = in.pushLimit(in.readRawVarint32());
      while (!in.isAtEnd()) {
        int tag = in.readTag();
        if (WireFormat.getTagFieldNumber(tag) != 1) {
          in.skipField(tag);
          continue;
        }
        int block = in.pushLimit(in.readRawVarint32());
        while (!in.isAtEnd()) {
          int field = in.readTag();
          if (WireFormat.getTagFieldNumber(field) == 7) { // Block.data
            long at = due.read(in, in.readRawVarint32());
            if (at != runDue) {
              record(runDue, runLength, now);
              runDue = at;
              runLength = 0;
            }
            runLength += at != 0 ? 1 : 0;
          } else {
            in.skipField(field);
          }
        }
        in.popLimit(block);
        count++;
      }
      in.popLimit(batch);
      record(runDue, runLength, now);
      blocks.addAndGet(count); // after their delays: a reader that sees every block counted sees their delays too
    }

    private void record(long at, long count, long now) {
      if (count > 0) {
        StreamMeasure.delivered(recorder, at, now, count);
      }
    }
  }

  /**
   * Opens {@code count} Watch streams of {@code request}, taking turns over {@code channels}, and
   * waits until each has caught up.
   *
   * @throws IllegalStateException if one fails or does not catch up within a minute
   */
  static List<Watcher> open(List<ManagedChannel> channels, int count, WatchRequest request, Recorder recorder,
      BlockDue due) throws InterruptedException {
    return RawStream.open(channels, RAW_WATCH, count, i -> request, i -> new Watcher(recorder, due), 60);
  }
}
