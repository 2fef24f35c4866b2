package dev.feedstore.server.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/** The samples of a Prometheus text page, as the metrics endpoint serves them. */
public final class MetricsSamples {
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  private MetricsSamples() {}

  /** Every sample line of {@code body}, by name with labels. */
  public static Map<String, Double> parse(String body) {
    Map<String, Double> samples = new HashMap<>();
    for (String line : body.split("\n")) {
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      int space = line.lastIndexOf(' ');
      samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
    }
    return samples;
  }

  /** The samples of {@code GET http://127.0.0.1:port/metrics} (10 s at most). */
  public static Map<String, Double> scrape(int port) {
    try {
      HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
          + "/metrics")).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
      return parse(response.body());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
