package dev.feedstore.server.testing;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * A client of the Durable Streams under {@code /v1/stream/} of one server's HTTP API, as the
 * protocol's clients call them: each method one request, the response returned whatever its status.
 * Thread-safe.
 */
public final class Streams {
  private final Http http;

  public Streams(Http http) {
    this.http = http;
  }

  public Http http() {
    return http;
  }

  /** A request to the stream {@code name} (with {@code query}, if not empty), carrying the headers. */
  public HttpRequest.Builder request(String name, String query, String... headers) {
    HttpRequest.Builder request = http.request("/v1/stream/" + name + (query.isEmpty() ? "" : "?" + query));
    if (headers.length > 0) {
      request.headers(headers);
    }
    return request;
  }

  /** PUT: creates the stream with {@code contentType} and {@code body}. */
  public HttpResponse<String> create(String name, String contentType, String body, String... headers) {
    return http.send(request(name, "", headers).header("Content-Type", contentType)
        .PUT(HttpRequest.BodyPublishers.ofString(body)).build());
  }

  /** POST: appends {@code body} as {@code contentType}. */
  public HttpResponse<String> append(String name, String contentType, String body, String... headers) {
    return http.send(request(name, "", headers).header("Content-Type", contentType)
        .POST(HttpRequest.BodyPublishers.ofString(body)).build());
  }

  /** GET with {@code query} ({@code offset=-1}, {@code offset=O&live=long-poll}, ...). */
  public HttpResponse<String> read(String name, String query, String... headers) {
    return http.send(request(name, query, headers).GET().build());
  }

  /** The {@code Stream-Next-Offset} of {@code response}. */
  public static String offset(HttpResponse<?> response) {
    return response.headers().firstValue("Stream-Next-Offset").orElseThrow(() ->
        new AssertionError("no Stream-Next-Offset in " + response + " " + response.headers().map()));
  }
}
