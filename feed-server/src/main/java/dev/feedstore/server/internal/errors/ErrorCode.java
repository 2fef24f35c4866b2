package dev.feedstore.server.internal.errors;

/**
 * Why a call failed, in terms every transport maps to its own: gRPC takes the status code of the
 * same name, HTTP the status {@link #httpStatus()}. The names follow gRPC's litmus test ({@code
 * io.grpc.Status}): retry {@code UNAVAILABLE}, fix the request for {@code INVALID_ARGUMENT}, wait
 * or send less for {@code RESOURCE_EXHAUSTED}.
 */
public enum ErrorCode {
  INVALID_ARGUMENT(400),
  UNAUTHENTICATED(401),
  PERMISSION_DENIED(403),
  NOT_FOUND(404),
  ALREADY_EXISTS(409),
  /** The space's history went back under an open stream (a restore): connect again and check (HTTP 409 Conflict). */
  ABORTED(409),
  /** A cursor below the space's floor: the history it names is gone (HTTP 410 Gone). */
  FAILED_PRECONDITION(410),
  RESOURCE_EXHAUSTED(429),
  UNAVAILABLE(503),
  DATA_LOSS(500),
  INTERNAL(500);

  private final int httpStatus;

  ErrorCode(int httpStatus) {
    this.httpStatus = httpStatus;
  }

  /** The HTTP status of a refusal with this code (a request over a size limit is 413: see {@link CallRefusal}). */
  int httpStatus() {
    return httpStatus;
  }

  /** True for failures the request caused (logged as rejections), false for the server's own. */
  public boolean byRequest() {
    return this != INTERNAL && this != DATA_LOSS;
  }
}
