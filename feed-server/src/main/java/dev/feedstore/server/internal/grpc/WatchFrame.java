package dev.feedstore.server.internal.grpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.UnsafeByteOperations;
import dev.feedstore.proto.v1.WatchEvent;
import io.grpc.Drainable;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;

/**
 * One {@code WatchEvent} in its wire form. A block batch of live blocks is put together from the
 * bytes each block was encoded to once, by the first Watch that sent it ({@link EncodedBlock}), so
 * that a thousand watchers of a space send the same bytes without encoding them a thousand times; only
 * the few fields of the event itself (request id, token, highest position) are encoded per stream.
 * Protobuf readers accept the fields of a message in any order and concatenated encodings as one
 * message, which is what makes this a valid {@code WatchEvent}. Immutable.
 */
final class WatchFrame {
  /** The tag of {@code WatchEvent.blocks} (field 4, length-delimited). */
  private static final int BLOCKS_TAG = (4 << 3) | 2;

  /** Frames on the wire, for the Watch method of the service ({@link FeedSyncService#definition}). */
  static final MethodDescriptor.Marshaller<WatchFrame> MARSHALLER = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(WatchFrame frame) {
      return new FrameStream(frame.bytes);
    }

    @Override
    public WatchFrame parse(InputStream stream) {
      try {
        return new WatchFrame(stream.readAllBytes());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  };

  /** Not changed once made; handed out read-only only. */
  private final byte[] bytes;

  private WatchFrame(byte[] bytes) {
    this.bytes = Objects.requireNonNull(bytes, "bytes");
  }

  /** An event encoded whole. */
  static WatchFrame of(WatchEvent event) {
    return new WatchFrame(event.toByteArray());
  }

  /**
   * An event of {@code head}'s fields (which must not include {@code blocks}) and a block batch of
   * the given encoded parts: {@code BlockBatch} fields, each with its tag, as {@link EncodedBlock}
   * holds them.
   */
  static WatchFrame withBatch(WatchEvent head, List<ByteString> batchFields) {
    int batchSize = 0;
    for (ByteString field : batchFields) {
      batchSize += field.size();
    }
    int headSize = head.getSerializedSize();
    int prefixSize = CodedOutputStream.computeUInt32SizeNoTag(BLOCKS_TAG)
        + CodedOutputStream.computeUInt32SizeNoTag(batchSize);
    // One flat array, not a rope of the parts: the transport then copies it in one write, where a
    // rope costs a write per block, for every stream the frame is sent to.
    byte[] frame = new byte[headSize + prefixSize + batchSize];
    CodedOutputStream out = CodedOutputStream.newInstance(frame, 0, headSize + prefixSize);
    try {
      head.writeTo(out);
      out.writeUInt32NoTag(BLOCKS_TAG);
      out.writeUInt32NoTag(batchSize);
      out.checkNoSpaceLeft();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    int offset = headSize + prefixSize;
    for (ByteString field : batchFields) {
      field.copyTo(frame, offset);
      offset += field.size();
    }
    return new WatchFrame(frame);
  }

  /** The frame's bytes, read-only. */
  ByteString bytes() {
    return UnsafeByteOperations.unsafeWrap(bytes);
  }

  /** A frame as gRPC reads it: of known length, drained straight into the transport's buffers. */
  private static final class FrameStream extends InputStream implements KnownLength, Drainable {
    private final byte[] bytes;
    private InputStream reading;
    private boolean drained;

    FrameStream(byte[] bytes) {
      this.bytes = bytes;
    }

    @Override
    public int drainTo(OutputStream target) throws IOException {
      if (drained || reading != null) {
        throw new IllegalStateException("a frame is read once");
      }
      drained = true;
      // Straight from the array: ByteString.writeTo would copy it first, for every stream sent to.
      target.write(bytes);
      return bytes.length;
    }

    @Override
    public int available() throws IOException {
      if (drained) {
        return 0;
      }
      return reading == null ? bytes.length : reading.available();
    }

    @Override
    public int read() throws IOException {
      return drained ? -1 : input().read();
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      return drained ? -1 : input().read(buffer, offset, length);
    }

    private InputStream input() {
      if (reading == null) {
        reading = new ByteArrayInputStream(bytes);
      }
      return reading;
    }
  }
}
