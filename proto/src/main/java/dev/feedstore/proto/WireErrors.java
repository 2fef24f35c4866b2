package dev.feedstore.proto;

import dev.feedstore.proto.v1.AppendConflict;
import dev.feedstore.proto.v1.LimitExceeded;
import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.ErrorInfo;
import io.grpc.Metadata;
import io.grpc.protobuf.StatusProto;
import java.util.OptionalLong;
import io.grpc.protobuf.ProtoUtils;

/** The machine-readable parts of error statuses. */
public final class WireErrors {
  private WireErrors() {}

  /** Trailer of an {@code ALREADY_EXISTS} answer to Append: the conflicting keys. */
  public static final Metadata.Key<AppendConflict> APPEND_CONFLICT =
      ProtoUtils.keyForProto(AppendConflict.getDefaultInstance());

  /**
   * Trailer of a {@code RESOURCE_EXHAUSTED} answer over one of the server's settings: the setting,
   * its value and what the request had ({@code feed-limit-exceeded-bin}).
   */
  public static final Metadata.Key<LimitExceeded> LIMIT_EXCEEDED =
      Metadata.Key.of("feed-limit-exceeded" + Metadata.BINARY_HEADER_SUFFIX, ProtoUtils.metadataMarshaller(
          LimitExceeded.getDefaultInstance()));

  /** The domain of this server's {@code google.rpc.ErrorInfo} details. */
  public static final String DOMAIN = "feedstore.dev";

  /** The reason of a {@code FAILED_PRECONDITION} over a cursor below the space's floor. */
  public static final String CURSOR_COMPACTED = "CURSOR_COMPACTED";

  /** The detail of a cursor below the floor: the space, the cursor and the floor, as metadata. */
  public static ErrorInfo cursorCompacted(String spaceId, long cursor, long floor) {
    return ErrorInfo.newBuilder().setReason(CURSOR_COMPACTED).setDomain(DOMAIN)
        .putMetadata("space_id", spaceId)
        .putMetadata("cursor", Long.toString(cursor))
        .putMetadata("floor", Long.toString(floor))
        .build();
  }

  /**
   * The floor named by a {@code CURSOR_COMPACTED} detail of {@code failure}'s status, if it has
   * one: what a client reads to resume from the floor.
   */
  public static OptionalLong compactedFloor(Throwable failure) {
    com.google.rpc.Status status = StatusProto.fromThrowable(failure);
    if (status == null) {
      return OptionalLong.empty();
    }
    for (Any detail : status.getDetailsList()) {
      if (detail.is(ErrorInfo.class)) {
        try {
          ErrorInfo info = detail.unpack(ErrorInfo.class);
          if (CURSOR_COMPACTED.equals(info.getReason()) && DOMAIN.equals(info.getDomain())) {
            return OptionalLong.of(Long.parseLong(info.getMetadataOrDefault("floor", "0")));
          }
        } catch (InvalidProtocolBufferException | NumberFormatException e) {
          return OptionalLong.empty();
        }
      }
    }
    return OptionalLong.empty();
  }
}
