package dev.feedstore.server.internal.streams;

import static dev.feedstore.server.settings.ServerSettings.STREAMS_SPACE;

import dev.feedstore.server.internal.core.ServerCore;
import dev.feedstore.server.internal.http.HttpApi;
import dev.feedstore.server.internal.http.HttpExchange;
import dev.feedstore.server.internal.http.HttpProtocol;
import java.util.Set;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The Durable Streams protocol as the HTTP edge serves it, under {@value #PREFIX}: each request an
 * exchange of the streams' space ({@code streams-space}), counted by the protocol's method
 * ({@code StreamAppend}, ...), admitted with the API's access rules, per-principal limits and
 * executor (a stream's feed has no namespace, so a caller needs a space-wide grant of the streams'
 * space), and served by {@link HttpStreams}; every answer, refusals of access and limits
 * included, carries the protocol's browser security headers. Thread-safe.
 */
public final class StreamsProtocol implements HttpProtocol {
  static final String PREFIX = "/v1/stream/";
  /** The protocol's request headers, which a page of another origin may send. */
  private static final Set<String> CORS_REQUEST = Set.of("If-None-Match", "Stream-Seq", "Stream-TTL",
      "Stream-Expires-At", "Stream-Closed", "Stream-Forked-From", "Stream-Fork-Offset", "Stream-Fork-Sub-Offset",
      "Producer-Id", "Producer-Epoch", "Producer-Seq");
  /** The protocol's response headers, which a page of another origin may read. */
  private static final Set<String> CORS_RESPONSE = Set.of("ETag", "Location", "Stream-Next-Offset", "Stream-Cursor",
      "Stream-Up-To-Date", "Stream-Closed", "Stream-TTL", "Stream-Expires-At", "Stream-SSE-Data-Encoding",
      "Producer-Epoch", "Producer-Seq", "Producer-Expected-Seq", "Producer-Received-Seq");

  private final ServerCore core;
  private final HttpStreams streams;

  /** The protocol over {@code core}'s authority. */
  public StreamsProtocol(ServerCore core) {
    this.core = core;
    this.streams = new HttpStreams(core);
  }

  @Override
  public String prefix() {
    return PREFIX;
  }

  @Override
  public Set<String> corsRequestHeaders() {
    return CORS_REQUEST;
  }

  @Override
  public Set<String> corsResponseHeaders() {
    return CORS_RESPONSE;
  }

  @Override
  public void handle(Request request, Response response, Callback callback, String name, HttpApi api) {
    secure(response);
    String method = request.getMethod();
    String space = core.settings().get(STREAMS_SPACE);
    HttpExchange exchange = new HttpExchange(request, response, callback, core, space, method(method), true);
    api.admit(exchange, writes(method), (admitted, caller) -> {
      try {
        // A stream's feed is created without a namespace, so only a space-wide grant covers it.
        caller.checkWholeSpace(admitted.method(), space, writes(method), "uses a Durable Stream, whose feed has no"
            + " namespace");
        streams.serve(admitted, caller, name);
      } catch (RuntimeException e) {
        streams.fail(admitted, e);
      }
    });
  }

  /** The metrics method of a request of {@code method}. */
  private static String method(String httpMethod) {
    return switch (httpMethod) {
      case "PUT" -> "StreamCreate";
      case "POST" -> "StreamAppend";
      case "DELETE" -> "StreamDelete";
      case "HEAD" -> "StreamHead";
      default -> "StreamRead";
    };
  }

  private static boolean writes(String httpMethod) {
    return httpMethod.equals("PUT") || httpMethod.equals("POST") || httpMethod.equals("DELETE");
  }

  /**
   * Puts the protocol's browser security headers on a stream's response, before anything else, so
   * that refusals of access and limits carry them too.
   */
  private static void secure(Response response) {
    response.getHeaders().put("X-Content-Type-Options", "nosniff");
    response.getHeaders().put("Cross-Origin-Resource-Policy", "cross-origin");
  }
}
