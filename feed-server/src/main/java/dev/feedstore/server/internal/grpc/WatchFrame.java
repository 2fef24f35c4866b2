package dev.feedstore.server.internal.grpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.UnsafeByteOperations;
import dev.feedstore.proto.v1.WatchEvent;
import io.grpc.MethodDescriptor;
import java.io.IOException;
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
  static final MethodDescriptor.Marshaller<WatchFrame> MARSHALLER = EncodedStream.marshaller(frame -> frame.bytes,
      WatchFrame::new);

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
}
