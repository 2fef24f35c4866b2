package dev.feedstore.server.internal;

import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.LimitExceededException;
import dev.feedstore.core.store.CorruptBlockException;
import dev.feedstore.core.store.StorageFaultException;
import dev.feedstore.core.store.StoreException;
import dev.feedstore.proto.WireErrors;
import dev.feedstore.proto.WireMapping;
import dev.feedstore.proto.v1.AppendConflict;
import dev.feedstore.proto.v1.LimitExceeded;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;

/**
 * Turns domain failures into gRPC statuses, at the server's edge only. The code follows the litmus
 * test of {@link Status}: bad input is {@code INVALID_ARGUMENT}, a limit {@code
 * RESOURCE_EXHAUSTED} (with the setting in the {@link WireErrors#LIMIT_EXCEEDED} trailer), a sequence conflict {@code ALREADY_EXISTS} (with the keys in the {@link
 * WireErrors#APPEND_CONFLICT} trailer), an unknown subscription {@code NOT_FOUND}, shutting down
 * {@code UNAVAILABLE}; a block stored corrupt is {@code DATA_LOSS} naming the block (its key is the
 * caller's data, not a server detail). A fault of the server's storage says what is wrong without
 * the server's paths (the log has them): a full disk is {@code RESOURCE_EXHAUSTED}, a read-only
 * file or an I/O error {@code UNAVAILABLE} (retry, here later or on another server), a damaged
 * file {@code DATA_LOSS}. Anything else is the server's fault, {@code INTERNAL}, whose description
 * does not leak server details. Stateless and thread-safe.
 */
final class Failures {
  /** The most bytes of conflicting keys in one trailer (base64 in transit: about 4 KiB). */
  static final int CONFLICT_TRAILER_BYTES = 3000;

  private Failures() {}

  static StatusException toStatus(Throwable failure) {
    if (failure instanceof InvalidValueException) {
      return Status.INVALID_ARGUMENT.withDescription(failure.getMessage()).asException();
    }
    if (failure instanceof LimitExceededException limit) {
      Metadata trailers = new Metadata();
      trailers.put(WireErrors.LIMIT_EXCEEDED, LimitExceeded.newBuilder()
          .setLimit(limit.limitKey()).setValue(limit.limit()).setActual(limit.actual()).build());
      return Status.RESOURCE_EXHAUSTED.withDescription(failure.getMessage()).asException(trailers);
    }
    if (failure instanceof AppendConflictException conflict) {
      return conflict(conflict);
    }
    if (failure instanceof SubscriptionNotFoundException) {
      return Status.NOT_FOUND.withDescription(failure.getMessage()).asException();
    }
    if (failure instanceof AccessDeniedException denied) {
      return (denied.authenticated() ? Status.PERMISSION_DENIED : Status.UNAUTHENTICATED)
          .withDescription(failure.getMessage()).asException();
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
    if (failure instanceof CorruptBlockException) {
      return Status.DATA_LOSS.withDescription("the server's copy of " + failure.getMessage()
          + "; reads that do not include this block still work").asException();
    }
    if (failure instanceof StorageFaultException fault) {
      return storageFault(fault);
    }
    if (failure instanceof StoreException) {
      return Status.INTERNAL.withDescription("the server's storage failed (details are in the server's log)")
          .asException();
    }
    return Status.INTERNAL.withDescription("internal error (details are in the server's log)").asException();
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
   * The status of a storage fault: what is wrong and that the operator resolves it, naming the
   * database file but not its directory.
   */
  private static StatusException storageFault(StorageFaultException fault) {
    String name = String.valueOf(fault.file().getFileName());
    Status status = switch (fault.kind()) {
      case FULL -> Status.RESOURCE_EXHAUSTED.withDescription("the disk holding the server's database " + name
          + " is full: writes fail until its operator frees space; retry later (reads still work)");
      case READ_ONLY -> Status.UNAVAILABLE.withDescription("the server's database " + name
          + " is read-only: writes fail until its operator makes it writable; retry later");
      case IO -> Status.UNAVAILABLE.withDescription("the disk holding the server's database " + name
          + " reported an I/O error; retry later (the server's log has the details)");
      case CORRUPT -> Status.DATA_LOSS.withDescription("the server's database " + name
          + " is damaged; its operator restores it from a backup (the server's log has the details)");
    };
    return status.asException();
  }

  /** True for failures caused by the request (logged as rejections), false for the server's own. */
  static boolean isRejection(Status.Code code) {
    return code != Status.Code.INTERNAL && code != Status.Code.UNKNOWN && code != Status.Code.DATA_LOSS;
  }
}
