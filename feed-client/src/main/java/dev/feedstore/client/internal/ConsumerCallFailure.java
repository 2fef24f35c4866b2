package dev.feedstore.client.internal;

import dev.feedstore.proto.WireErrors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.OptionalLong;

/**
 * A call of a durable consumer that failed, sorted by what the consumer does next: reconnect after
 * an {@link Kind#OUTAGE}, stop on anything else. Carries the status as the transport reported it.
 * Immutable.
 */
public final class ConsumerCallFailure extends RuntimeException {

  /** What a failure means for the consumer. */
  public enum Kind {
    /** Unreachable, restarting, a deadline, a fault of the authority's own: try again. */
    OUTAGE,
    /** {@code NOT_FOUND}, reason {@code SUBSCRIPTION_EXPIRED}. */
    EXPIRED,
    /** {@code NOT_FOUND} for another reason: the authority does not know the subscription. */
    UNKNOWN,
    /** {@code FAILED_PRECONDITION}, reason {@code CURSOR_COMPACTED}: see {@link #floor()}. */
    COMPACTED,
    /** Any other answer: the authority refused the call. */
    REFUSED
  }

  private final Kind kind;
  private final Status status;
  private final OptionalLong floor;

  private ConsumerCallFailure(Kind kind, String message, Status status, OptionalLong floor, Throwable cause) {
    super(message, cause);
    this.kind = kind;
    this.status = status;
    this.floor = floor;
  }

  /**
   * The failure of {@code call} that ended with {@code status}; {@code failure} carries the status
   * details (null when the server completed a stream, which a durable consumer's stream never
   * expects: an outage).
   */
  public static ConsumerCallFailure of(String call, Status status, StatusRuntimeException failure) {
    StatusRuntimeException cause = failure != null ? failure : status.asRuntimeException();
    String message = call + " failed: " + status.getCode()
        + (status.getDescription() == null ? "" : ": " + status.getDescription());
    OptionalLong floor = OptionalLong.empty();
    Kind kind;
    if (status.getCode() == Status.Code.OK) {
      kind = Kind.OUTAGE;
      message = call + " ended without a status";
    } else if (status.getCode() == Status.Code.NOT_FOUND) {
      kind = WireErrors.SUBSCRIPTION_EXPIRED.equals(WireErrors.reason(cause)) ? Kind.EXPIRED : Kind.UNKNOWN;
    } else if (status.getCode() == Status.Code.FAILED_PRECONDITION
        && WireErrors.compactedFloor(cause).orElse(0) > 0) {
      kind = Kind.COMPACTED;
      floor = WireErrors.compactedFloor(cause);
    } else {
      kind = GrpcAuthority.isOutage(status) ? Kind.OUTAGE : Kind.REFUSED;
    }
    return new ConsumerCallFailure(kind, message, status, floor, cause);
  }

  public Kind kind() {
    return kind;
  }

  public Status status() {
    return status;
  }

  /** With {@link Kind#COMPACTED}: the authority's floor (every position up to it is gone). */
  public OptionalLong floor() {
    return floor;
  }
}
