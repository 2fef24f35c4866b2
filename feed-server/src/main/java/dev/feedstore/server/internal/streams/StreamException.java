package dev.feedstore.server.internal.streams;

import dev.feedstore.server.internal.errors.ErrorCode;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A Durable Streams request refused with the protocol's own status (400, 403, 404, 409, 410, 413)
 * and the headers the protocol puts on that refusal ({@code Stream-Closed}, {@code
 * Producer-Expected-Seq}, ...). The message names the value and the rule. Nothing was changed.
 */
final class StreamException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final transient Map<String, String> headers = new LinkedHashMap<>();

  StreamException(int status, String message) {
    super(message, null, false, false);
    this.status = status;
  }

  static StreamException badRequest(String message) {
    return new StreamException(400, message);
  }

  static StreamException notFound(String name) {
    return new StreamException(404, "no stream '" + RateLimitedLog.clip(name) + "' (create it with PUT)");
  }

  static StreamException conflict(String message) {
    return new StreamException(409, message);
  }

  /** The same refusal with one more response header. */
  StreamException with(String header, String value) {
    headers.put(header, value);
    return this;
  }

  int status() {
    return status;
  }

  Map<String, String> headers() {
    return headers;
  }

  /** The error code of the JSON body, named like the API's other errors. */
  String code() {
    return switch (status) {
      case 403 -> ErrorCode.PERMISSION_DENIED.name();
      case 404 -> ErrorCode.NOT_FOUND.name();
      case 409 -> "CONFLICT";
      case 410 -> "GONE";
      case 413 -> ErrorCode.RESOURCE_EXHAUSTED.name();
      default -> ErrorCode.INVALID_ARGUMENT.name();
    };
  }
}
