package dev.feedstore.proto;

import dev.feedstore.proto.v1.AppendConflict;
import dev.feedstore.proto.v1.LimitExceeded;
import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.ErrorInfo;
import io.grpc.Metadata;
import io.grpc.protobuf.StatusProto;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import io.grpc.protobuf.ProtoUtils;

/** The machine-readable parts of error statuses. */
public final class WireErrors {
  private WireErrors() {}

  /** The domain of the {@code google.rpc.ErrorInfo} details this server sends. */
  public static final String DOMAIN = "feedstore.dev";

  /**
   * The {@code ErrorInfo} reason of a {@code NOT_FOUND} answer about a subscription id that was
   * never handed out in the space (or was forgotten long after it expired).
   */
  public static final String SUBSCRIPTION_UNKNOWN = "SUBSCRIPTION_UNKNOWN";

  /**
   * The {@code ErrorInfo} reason of a {@code NOT_FOUND} answer about a subscription that expired (a
   * durable one: not acknowledged within its {@code ack_within_ms}); it holds nothing any more.
   */
  public static final String SUBSCRIPTION_EXPIRED = "SUBSCRIPTION_EXPIRED";

  /**
   * The reason of the {@code google.rpc.ErrorInfo} detail of {@code status} (of this server's
   * domain), or null if it has none.
   */
  public static String reason(Throwable status) {
    com.google.rpc.Status detailed = io.grpc.protobuf.StatusProto.fromThrowable(status);
    if (detailed == null) {
      return null;
    }
    for (com.google.protobuf.Any detail : detailed.getDetailsList()) {
      if (detail.is(com.google.rpc.ErrorInfo.class)) {
        try {
          com.google.rpc.ErrorInfo info = detail.unpack(com.google.rpc.ErrorInfo.class);
          if (DOMAIN.equals(info.getDomain())) {
            return info.getReason();
          }
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
          return null;
        }
      }
    }
    return null;
  }

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

  /**
   * The reason of an {@code ABORTED} that ends a live stream because the space's history went back
   * under it (its store was restored, or failed over and lost commits): connect again from the
   * cursor and check what you hold against the answer. Its metadata names the space and its highest
   * position now ({@code max_position}).
   */
  public static final String HISTORY_ROLLED_BACK = "HISTORY_ROLLED_BACK";

  /** The detail of a stream ended by a space's history going back: the space and its highest position now. */
  public static ErrorInfo historyRolledBack(String spaceId, long maxPosition) {
    return ErrorInfo.newBuilder().setReason(HISTORY_ROLLED_BACK).setDomain(DOMAIN)
        .putMetadata("space_id", spaceId)
        .putMetadata("max_position", Long.toString(maxPosition))
        .build();
  }

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
   * The reason of a {@code FAILED_PRECONDITION} answer to an append that brought new blocks to the
   * feed of a Durable Stream that is over (closed, deleted or expired): nothing was written.
   */
  public static final String STREAM_CLOSED = "STREAM_CLOSED";

  /** The detail of a {@code STREAM_CLOSED} refusal: the space and the feeds, comma-separated, as metadata. */
  public static ErrorInfo streamClosed(String spaceId, List<String> feedIds) {
    return ErrorInfo.newBuilder().setReason(STREAM_CLOSED).setDomain(DOMAIN)
        .putMetadata("space_id", spaceId)
        .putMetadata("feed_ids", String.join(",", feedIds))
        .build();
  }

  /**
   * The feeds named by a {@code STREAM_CLOSED} detail of {@code failure}'s status, if it has one:
   * the feeds whose new blocks the authority refuses.
   */
  public static Optional<List<String>> closedFeeds(Throwable failure) {
    return detail(failure, STREAM_CLOSED).map(info -> List.of(info.getMetadataOrDefault("feed_ids", "").split(",")))
        .map(ids -> ids.stream().filter(id -> !id.isEmpty()).toList());
  }

  /** The {@code ErrorInfo} of this server's domain with {@code reason} in {@code failure}'s status details. */
  private static Optional<ErrorInfo> detail(Throwable failure, String reason) {
    com.google.rpc.Status status = StatusProto.fromThrowable(failure);
    if (status == null) {
      return Optional.empty();
    }
    for (Any detail : status.getDetailsList()) {
      if (detail.is(ErrorInfo.class)) {
        try {
          ErrorInfo info = detail.unpack(ErrorInfo.class);
          if (reason.equals(info.getReason()) && DOMAIN.equals(info.getDomain())) {
            return Optional.of(info);
          }
        } catch (InvalidProtocolBufferException e) {
          return Optional.empty();
        }
      }
    }
    return Optional.empty();
  }

  /**
   * The floor named by a {@code CURSOR_COMPACTED} detail of {@code failure}'s status, if it has
   * one: what a client reads to resume from the floor.
   */
  public static OptionalLong compactedFloor(Throwable failure) {
    try {
      return detail(failure, CURSOR_COMPACTED).map(info -> OptionalLong.of(Long.parseLong(
          info.getMetadataOrDefault("floor", "0")))).orElse(OptionalLong.empty());
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }
}
