package dev.feedstore.server.internal.http;

import dev.feedstore.server.internal.errors.ErrorCode;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import java.io.IOException;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The answers Jetty itself gives before a request reaches the API (a malformed request line, headers
 * too large, a URI too long, a path that tries to leave its segments): JSON {@code {code,
 * message}} like every other error of the API, without server details. Thread-safe.
 */
final class HttpErrors extends ErrorHandler {
  @Override
  protected void generateResponse(Request request, Response response, int status, String message,
      Throwable cause, Callback callback) throws IOException {
    String code = switch (status) {
      case 404 -> ErrorCode.NOT_FOUND.name();
      case 413, 414, 431 -> ErrorCode.RESOURCE_EXHAUSTED.name();
      case 503 -> ErrorCode.UNAVAILABLE.name();
      default -> status >= 500 ? ErrorCode.INTERNAL.name() : ErrorCode.INVALID_ARGUMENT.name();
    };
    String text = message == null || message.isBlank() ? "HTTP " + status : message;
    HttpExchange.write(response, callback, status, Json.object().field("code", code)
        .field("message", "the HTTP request was refused: " + RateLimitedLog.clip(text)).end());
  }
}
