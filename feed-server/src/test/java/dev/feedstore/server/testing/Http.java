package dev.feedstore.server.testing;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * A java.net.http client of one server's HTTP API on 127.0.0.1, as a browser or {@code curl} would
 * call it, with an optional bearer token. Thread-safe.
 */
public final class Http {
  private final HttpClient client;
  private final String base;
  private final Optional<String> token;

  private Http(HttpClient client, String base, Optional<String> token) {
    this.client = client;
    this.base = base;
    this.token = token;
  }

  /** A client of {@code http://127.0.0.1:port}. */
  public static Http on(int port) {
    return new Http(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build(),
        "http://127.0.0.1:" + port, Optional.empty());
  }

  /** This client, sending {@code authorization: Bearer token}. */
  public Http withToken(String value) {
    return new Http(client, base, Optional.of(value));
  }

  public String base() {
    return base;
  }

  public HttpClient client() {
    return client;
  }

  /** A request to {@code path} (with its query), carrying the token if any. */
  public HttpRequest.Builder request(String path) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
    token.ifPresent(value -> request.header("Authorization", "Bearer " + value));
    return request;
  }

  public HttpResponse<String> get(String path) {
    return send(request(path).GET().build());
  }

  /** POSTs {@code json} to {@code path}. */
  public HttpResponse<String> post(String path, String json) {
    return send(request(path).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json)).build());
  }

  /** PUTs {@code json} to {@code path}. */
  public HttpResponse<String> put(String path, String json) {
    return send(request(path).header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(json)).build());
  }

  /** Appends to {@code feed} of {@code space}: blocks of {@code actor}, sequences {@code first..}, data "actor/sequence". */
  public HttpResponse<String> append(String space, String feed, String actor, long first, int count) {
    StringBuilder blocks = new StringBuilder();
    for (int i = 0; i < count; i++) {
      String data = java.util.Base64.getEncoder().encodeToString((actor + "/" + (first + i)).getBytes());
      blocks.append(i == 0 ? "" : ",").append("{\"actor_id\":\"").append(actor).append("\",\"sequence\":")
          .append(first + i).append(",\"timestamp\":1700000000000,\"data\":\"").append(data).append("\"}");
    }
    return post("/v1/spaces/" + space + "/feeds/" + feed + "/blocks", "{\"blocks\":[" + blocks + "]}");
  }

  public HttpResponse<String> send(HttpRequest request) {
    return send(request, HttpResponse.BodyHandlers.ofString());
  }

  /** Sends {@code request}, reading its body with {@code body}. */
  public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> body) {
    try {
      return client.send(request, body);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The body of {@code response} as a JSON object. */
  public static JsonObject json(HttpResponse<String> response) {
    return JsonParser.parseString(response.body()).getAsJsonObject();
  }
}
