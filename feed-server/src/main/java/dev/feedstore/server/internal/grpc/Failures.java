package dev.feedstore.server.internal.grpc;

import dev.feedstore.core.CursorCompactedException;
import dev.feedstore.proto.WireErrors;
import dev.feedstore.proto.WireMapping;
import dev.feedstore.proto.v1.AppendConflict;
import dev.feedstore.proto.v1.LimitExceeded;
import dev.feedstore.core.LimitExceededException;
import com.google.protobuf.Any;
import com.google.rpc.ErrorInfo;
import dev.feedstore.server.internal.errors.AppendConflictException;
import dev.feedstore.server.internal.errors.HistoryRolledBackException;
import dev.feedstore.server.internal.errors.RateLimitedException;
import dev.feedstore.server.internal.errors.CallRefusal;
import dev.feedstore.server.internal.errors.StreamClosedException;
import dev.feedstore.server.internal.errors.SubscriptionNotFoundException;
import io.grpc.Metadata;
import io.grpc.protobuf.StatusProto;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import java.util.List;

/**
 * Turns failures into gRPC statuses, at the gRPC edge only: the code and description of their
 * {@link CallRefusal}, plus what programs read from trailers: a limit's setting in the {@link
 * WireErrors#LIMIT_EXCEEDED} trailer (and, for a per-principal rate, when to retry in {@link
 * #RETRY_AFTER_MS}), the keys of a sequence conflict in the {@link WireErrors#APPEND_CONFLICT}
 * trailer. Stateless and thread-safe.
 */
final class Failures {
  /** The most bytes of conflicting keys in one trailer (base64 in transit: about 4 KiB). */
  static final int CONFLICT_TRAILER_BYTES = 3000;
  /** Milliseconds until a refused request would pass, on a refusal by a per-principal rate. */
  static final Metadata.Key<String> RETRY_AFTER_MS = Metadata.Key.of("retry-after-ms", Metadata.ASCII_STRING_MARSHALLER);

  private Failures() {}

  static StatusException toStatus(Throwable failure) {
    if (failure instanceof StatusRuntimeException status) {
      return status.getStatus().asException(status.getTrailers());
    }
    if (failure instanceof StatusException status) {
      return status;
    }
    if (failure instanceof AppendConflictException conflict) {
      return conflict(conflict);
    }
    if (failure instanceof CursorCompactedException compacted) {
      return compacted(compacted);
    }
    if (failure instanceof HistoryRolledBackException rolledBack) {
      return detailed(Status.Code.ABORTED, rolledBack.getMessage(),
          WireErrors.historyRolledBack(rolledBack.spaceId().value(), rolledBack.highest()));
    }
    if (failure instanceof SubscriptionNotFoundException notFound) {
      return notFound(notFound);
    }
    if (failure instanceof StreamClosedException closed) {
      return closed(closed);
    }
    CallRefusal refusal = CallRefusal.of(failure);
    Status status = Status.fromCode(Status.Code.valueOf(refusal.code().name())).withDescription(refusal.message());
    Metadata trailers = new Metadata();
    if (failure instanceof LimitExceededException limit) {
      trailers.put(WireErrors.LIMIT_EXCEEDED, LimitExceeded.newBuilder()
          .setLimit(limit.limitKey()).setValue(limit.limit()).setActual(limit.actual()).build());
    } else if (failure instanceof RateLimitedException rate) {
      trailers.put(WireErrors.LIMIT_EXCEEDED, LimitExceeded.newBuilder()
          .setLimit(rate.limitKey()).setValue(rate.limit()).setActual(rate.actual()).build());
      trailers.put(RETRY_AFTER_MS, Long.toString(rate.retryAfterMillis()));
    }
    return status.asException(trailers);
  }

  /**
   * {@code ALREADY_EXISTS} with the conflicting keys in the {@link WireErrors#APPEND_CONFLICT}
   * trailer. Trailers travel as HTTP/2 headers, which gRPC clients accept only up to 8 KiB by
   * default; so the trailer names as many keys as fit in {@value #CONFLICT_TRAILER_BYTES} bytes
   * and the description says when it names fewer than all. A client re-keys those and appends
   * again, which names the next ones.
   */
  private static StatusException conflict(AppendConflictException conflict) {
    AppendConflict.Builder detail = AppendConflict.newBuilder();
    int bytes = 0;
    for (var key : conflict.keys()) {
      var wire = WireMapping.toWire(key);
      int size = wire.getSerializedSize() + 3;
      if (detail.getKeysCount() > 0 && bytes + size > CONFLICT_TRAILER_BYTES) {
        break;
      }
      detail.addKeys(wire);
      bytes += size;
    }
    String description = conflict.getMessage();
    if (detail.getKeysCount() < conflict.keys().size()) {
      description += ". The trailer names the first " + detail.getKeysCount() + " of the " + conflict.keys().size()
          + " keys (metadata is limited in size): re-key those and append again to learn the others";
    }
    Metadata trailers = new Metadata();
    trailers.put(WireErrors.APPEND_CONFLICT, detail.build());
    return Status.ALREADY_EXISTS.withDescription(description).asException(trailers);
  }

  /**
   * {@code NOT_FOUND} with a {@code google.rpc.ErrorInfo} in the status details, whose reason says
   * whether the subscription is unknown or expired.
   */
  private static StatusException notFound(SubscriptionNotFoundException notFound) {
    return detailed(Status.Code.NOT_FOUND, notFound.getMessage(), ErrorInfo.newBuilder()
        .setReason(notFound.reason().name())
        .setDomain(WireErrors.DOMAIN)
        .putMetadata("subscription_id", notFound.subscriptionId())
        .build());
  }

  /**
   * {@code FAILED_PRECONDITION} with a {@code google.rpc.ErrorInfo} in the status details (the
   * standard place a gRPC client looks for a machine-readable reason): reason {@code
   * CURSOR_COMPACTED}, the floor and the space in its metadata.
   */
  private static StatusException compacted(CursorCompactedException compacted) {
    return detailed(Status.Code.FAILED_PRECONDITION, compacted.getMessage(), WireErrors.cursorCompacted(
        compacted.spaceId().value(), compacted.cursor().value(), compacted.floor().value()));
  }

  /**
   * {@code FAILED_PRECONDITION} with a {@code google.rpc.ErrorInfo} in the status details: reason
   * {@code STREAM_CLOSED}, the space and the feeds (the first {@value StreamClosedException#MAX_DETAILED},
   * so that the trailer stays small: a client leaves those out and learns any others on its next try).
   */
  private static StatusException closed(StreamClosedException closed) {
    List<String> feeds = closed.feeds().stream().limit(StreamClosedException.MAX_DETAILED)
        .map(dev.feedstore.core.FeedId::value).toList();
    return detailed(Status.Code.FAILED_PRECONDITION, closed.getMessage(),
        WireErrors.streamClosed(closed.spaceId().value(), feeds));
  }

  /** A status of {@code code} with {@code info} in its details, where gRPC clients look for a machine-readable reason. */
  private static StatusException detailed(Status.Code code, String message, ErrorInfo info) {
    com.google.rpc.Status detail = com.google.rpc.Status.newBuilder()
        .setCode(code.value())
        .setMessage(message)
        .addDetails(Any.pack(info))
        .build();
    return StatusProto.toStatusException(detail);
  }

  /** True for failures caused by the request (logged as rejections), false for the server's own. */
  static boolean isRejection(Status.Code code) {
    return code != Status.Code.INTERNAL && code != Status.Code.UNKNOWN && code != Status.Code.DATA_LOSS;
  }
}
