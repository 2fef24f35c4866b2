package dev.feedstore.server.internal;

import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.LimitExceededException;
import dev.feedstore.core.store.StoreException;
import dev.feedstore.proto.WireErrors;
import dev.feedstore.proto.WireMapping;
import dev.feedstore.proto.v1.AppendConflict;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;

/**
 * Turns domain failures into gRPC statuses, at the server's edge only. The code follows the litmus
 * test of {@link Status}: bad input is {@code INVALID_ARGUMENT}, a limit {@code
 * RESOURCE_EXHAUSTED}, a sequence conflict {@code ALREADY_EXISTS} (with the keys in the {@link
 * WireErrors#APPEND_CONFLICT} trailer), an unknown subscription {@code NOT_FOUND}, shutting down
 * {@code UNAVAILABLE}; anything else is the server's fault, {@code INTERNAL}, whose description
 * does not leak server details. Stateless and thread-safe.
 */
final class Failures {
  private Failures() {}

  static StatusException toStatus(Throwable failure) {
    if (failure instanceof InvalidValueException) {
      return Status.INVALID_ARGUMENT.withDescription(failure.getMessage()).asException();
    }
    if (failure instanceof LimitExceededException) {
      return Status.RESOURCE_EXHAUSTED.withDescription(failure.getMessage()).asException();
    }
    if (failure instanceof AppendConflictException conflict) {
      Metadata trailers = new Metadata();
      AppendConflict.Builder detail = AppendConflict.newBuilder();
      conflict.keys().forEach(key -> detail.addKeys(WireMapping.toWire(key)));
      trailers.put(WireErrors.APPEND_CONFLICT, detail.build());
      return Status.ALREADY_EXISTS.withDescription(failure.getMessage()).asException(trailers);
    }
    if (failure instanceof SubscriptionNotFoundException) {
      return Status.NOT_FOUND.withDescription(failure.getMessage()).asException();
    }
    if (failure instanceof ShuttingDownException) {
      return Status.UNAVAILABLE.withDescription(failure.getMessage()).asException();
    }
    if (failure instanceof StatusRuntimeException status) {
      return status.getStatus().asException(status.getTrailers());
    }
    if (failure instanceof StatusException status) {
      return status;
    }
    if (failure instanceof StoreException) {
      return Status.INTERNAL.withDescription("the server's storage failed (details are in the server's log)")
          .asException();
    }
    return Status.INTERNAL.withDescription("internal error (details are in the server's log)").asException();
  }

  /** True for failures caused by the request (logged as rejections), false for the server's own. */
  static boolean isRejection(Status.Code code) {
    return code != Status.Code.INTERNAL && code != Status.Code.UNKNOWN && code != Status.Code.DATA_LOSS;
  }
}
