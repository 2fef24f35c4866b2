package dev.feedstore.server.internal.http;

import dev.feedstore.server.internal.access.Caller;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One endpoint of the HTTP API: its method and path, the {@code FeedSync} call it mirrors (the
 * name its metrics and refusals use), what its caller needs, and what it does. A path is a
 * template of segments, {@code /v1/spaces/{space}/subscriptions/{subscription}/ack}: a segment in
 * braces matches any one segment and is handed to the endpoint by its name; {@code {space}} is
 * the space the caller is admitted to. Immutable and thread-safe.
 *
 * @param method the HTTP method
 * @param template the path
 * @param call the FeedSync method it mirrors ({@code Subscribe})
 * @param access what its caller needs
 * @param stream true for a response that stays open (Server-Sent Events), false for one answer
 * @param target what it does once its caller is admitted, on the request executor
 */
record HttpRoute(String method, String template, String call, Access access, boolean stream, Target target) {
  /** What a caller needs to use a route. */
  enum Access {
    /** A token the server knows, or none on a server without access control; names no space. */
    KNOWN,
    /** A grant to read the route's space. */
    READ,
    /** A grant to write to the route's space. */
    WRITE
  }

  /** What an endpoint does; it answers through the exchange. */
  interface Target {
    /**
     * @param path the values of the template's braced segments, by name
     */
    void run(HttpExchange exchange, Caller caller, Map<String, String> path) throws Exception;
  }

  /** A route answering once: the usual kind. */
  static HttpRoute unary(String method, String template, String call, Access access, Target target) {
    return new HttpRoute(method, template, call, access, false, target);
  }

  /**
   * The values of the braced segments when {@code segments} (a path split at {@code /}) is this
   * route's path; empty when it is not.
   */
  Optional<Map<String, String>> match(List<String> segments) {
    String[] parts = template.split("/", -1);
    if (parts.length != segments.size()) {
      return Optional.empty();
    }
    Map<String, String> values = new HashMap<>();
    for (int i = 0; i < parts.length; i++) {
      String part = parts[i];
      if (part.startsWith("{") && part.endsWith("}")) {
        values.put(part.substring(1, part.length() - 1), segments.get(i));
      } else if (!part.equals(segments.get(i))) {
        return Optional.empty();
      }
    }
    return Optional.of(values);
  }

  /** {@code GET /v1/spaces/{space}/blocks}. */
  @Override
  public String toString() {
    return method + " " + template;
  }
}
