package dev.feedstore.server.internal.grpc;

import dev.feedstore.proto.v1.LiveQueryEvent;
import io.grpc.MethodDescriptor;
import java.util.Objects;

/**
 * One {@code LiveQueryEvent} in its wire form. A change batch of a shared query carries nothing of
 * one call (its position and resume token are the batch's), so it is encoded once and its bytes go
 * to every subscriber of the query, as Watch's frames do ({@link WatchFrame}). Immutable.
 */
final class LiveQueryFrame {
  /** Frames on the wire, for the LiveQuery method of the service ({@link FeedSyncService#definition}). */
  static final MethodDescriptor.Marshaller<LiveQueryFrame> MARSHALLER = EncodedStream.marshaller(frame -> frame.bytes,
      LiveQueryFrame::new);

  /** Not changed once made. */
  private final byte[] bytes;

  private LiveQueryFrame(byte[] bytes) {
    this.bytes = Objects.requireNonNull(bytes, "bytes");
  }

  /** {@code event}, encoded. */
  static LiveQueryFrame of(LiveQueryEvent event) {
    return new LiveQueryFrame(event.toByteArray());
  }
}
