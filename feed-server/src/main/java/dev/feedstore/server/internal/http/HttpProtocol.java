package dev.feedstore.server.internal.http;

import java.util.Set;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * A protocol that the HTTP API serves under a path of its own, beside its own endpoints (the
 * Durable Streams protocol, under {@code /v1/stream/}), with the API's access rules, per-principal
 * limits, metrics and request executor ({@link HttpApi#admit}). Implementations are thread-safe.
 */
public interface HttpProtocol {
  /** The start of the path of every request of the protocol, such as {@code /v1/stream/}. */
  String prefix();

  /**
   * Takes a request whose path starts with {@link #prefix}, {@code rest} being the path after it:
   * makes its exchange and has {@code api} admit it, on Jetty's thread, which must not block.
   */
  void handle(Request request, Response response, Callback callback, String rest, HttpApi api);

  /** The request headers of the protocol that a page of another origin may send (CORS). */
  Set<String> corsRequestHeaders();

  /** The response headers of the protocol that a page of another origin may read (CORS). */
  Set<String> corsResponseHeaders();
}
