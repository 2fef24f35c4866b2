package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.testing.Http;
import dev.feedstore.server.testing.MetricsSamples;
import dev.feedstore.server.testing.SseReader;
import dev.feedstore.sqlite.SqliteFeedStore;
import dev.feedstore.testing.TestCertificates;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HTTP side's settings: CORS for browser origins, TLS with the gRPC socket's files, the web page's files, metrics. */
class HttpEdgeTest {
  @TempDir Path dir;
  final FeedId feed = TestBlocks.feedId();

  @Test
  void onlyTheConfiguredOriginsMayCallFromABrowser() throws Exception {
    try (SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("feeds.db"));
        FeedServer server = FeedServer.newBuilder(store).address("127.0.0.1", 0).http("127.0.0.1", 0)
            .httpCorsOrigins(Set.of("https://app.example")).build().start()) {
      Http http = Http.on(server.httpPort());
      HttpResponse<String> preflight = preflight(http, "/v1/spaces/s/feeds/" + feed.value() + "/blocks",
          "authorization,content-type");
      assertTrue(preflight.statusCode() / 100 == 2, preflight.toString());
      assertEquals("https://app.example", preflight.headers().firstValue("Access-Control-Allow-Origin").orElse(""));
      assertTrue(preflight.headers().firstValue("Access-Control-Allow-Headers").orElse("").toLowerCase()
          .contains("authorization"), preflight.headers().toString());

      HttpResponse<String> allowed = http.send(http.request("/v1/spaces/s/blocks").header("Origin",
          "https://app.example").build());
      assertEquals("https://app.example", allowed.headers().firstValue("Access-Control-Allow-Origin").orElse(""));
      HttpResponse<String> other = http.send(http.request("/v1/spaces/s/blocks").header("Origin",
          "https://evil.example").build());
      assertTrue(other.headers().firstValue("Access-Control-Allow-Origin").isEmpty(), other.headers().toString());
    }
    try (SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("plain.db"));
        FeedServer server = FeedServer.newBuilder(store).address("127.0.0.1", 0).http("127.0.0.1", 0).build().start()) {
      Http http = Http.on(server.httpPort());
      HttpResponse<String> none = http.send(http.request("/v1/spaces/s/blocks").header("Origin",
          "https://app.example").build());
      assertEquals(200, none.statusCode());
      assertTrue(none.headers().firstValue("Access-Control-Allow-Origin").isEmpty(), "no origin is allowed by default");
    }
  }

  @Test
  void aPageOfAnAllowedOriginMayUseTheHeadersOfTheDurableStreamsProtocol() throws Exception {
    try (SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("feeds.db"));
        FeedServer server = FeedServer.newBuilder(store).address("127.0.0.1", 0).http("127.0.0.1", 0)
            .httpCorsOrigins(Set.of("https://app.example")).build().start()) {
      Http http = Http.on(server.httpPort());
      HttpResponse<String> preflight = preflight(http, "/v1/stream/chat",
          "content-type,producer-id,producer-epoch,producer-seq");
      assertTrue(preflight.statusCode() / 100 == 2, preflight.toString());
      String allowed = preflight.headers().firstValue("Access-Control-Allow-Headers").orElse("").toLowerCase();
      assertTrue(allowed.contains("producer-id") && allowed.contains("content-type"), allowed);

      HttpResponse<String> created = http.send(http.request("/v1/stream/chat").header("Origin", "https://app.example")
          .header("Content-Type", "text/plain").PUT(HttpRequest.BodyPublishers.noBody()).build());
      assertEquals(201, created.statusCode(), created.body());
      String exposed = created.headers().firstValue("Access-Control-Expose-Headers").orElse("").toLowerCase();
      assertTrue(exposed.contains("stream-next-offset") && exposed.contains("retry-after"), exposed);
    }
  }

  /** A browser's question before a POST of {@code https://app.example} with {@code headers}. */
  private static HttpResponse<String> preflight(Http http, String path, String headers) throws Exception {
    return http.send(http.request(path).method("OPTIONS", HttpRequest.BodyPublishers.noBody())
        .header("Origin", "https://app.example").header("Access-Control-Request-Method", "POST")
        .header("Access-Control-Request-Headers", headers).build());
  }

  @Test
  void theApiSpeaksTlsWithTheServersCertificate() throws Exception {
    TestCertificates.Pem pem = TestCertificates.selfSigned(Files.createDirectories(dir.resolve("tls")));
    try (SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("feeds.db"));
        FeedServer server = FeedServer.newBuilder(store).address("127.0.0.1", 0).http("127.0.0.1", 0)
            .tls(pem.certificate(), pem.privateKey()).build().start()) {
      HttpClient trusting = HttpClient.newBuilder().sslContext(trusting(pem.certificate())).build();
      HttpResponse<String> page = trusting.send(HttpRequest.newBuilder(URI.create("https://localhost:"
          + server.httpPort() + "/v1/spaces/s/blocks")).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(200, page.statusCode(), page.body());

      assertThrows(java.io.IOException.class, () -> HttpClient.newHttpClient().send(HttpRequest.newBuilder(
          URI.create("https://localhost:" + server.httpPort() + "/v1/spaces/s/blocks")).build(),
          HttpResponse.BodyHandlers.ofString()), "a client that does not trust the certificate");
      assertThrows(java.io.UncheckedIOException.class, () -> Http.on(server.httpPort()).get("/v1/spaces/s/blocks"),
          "plain text on the TLS port gets no answer");
    }
  }

  @Test
  void theWebPagesFilesAreServedUnderUiAndNothingElseOfTheDirectory() throws Exception {
    Path ui = Files.createDirectories(dir.resolve("web"));
    Files.writeString(ui.resolve("index.html"), "<!doctype html><title>feeds</title>");
    Files.writeString(ui.resolve("app.js"), "console.log('hi')");
    Files.writeString(dir.resolve("secret.txt"), "not for the web");
    try (SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("feeds.db"));
        FeedServer server = FeedServer.newBuilder(store).address("127.0.0.1", 0).http("127.0.0.1", 0).httpUi(ui)
            .build().start()) {
      Http http = Http.on(server.httpPort());
      HttpResponse<String> index = http.get("/ui/");
      assertEquals(200, index.statusCode());
      assertEquals("text/html; charset=utf-8", index.headers().firstValue("Content-Type").orElse(""));
      assertTrue(index.body().contains("<title>feeds</title>"));
      assertEquals("text/javascript; charset=utf-8", http.get("/ui/app.js").headers().firstValue("Content-Type")
          .orElse(""));
      assertEquals(301, http.get("/ui").statusCode());
      for (String path : List.of("/ui/../secret.txt", "/ui/%2e%2e/secret.txt", "/ui/..%2Fsecret.txt", "/ui/.hidden",
          "/ui/missing.js")) {
        HttpResponse<String> refused = http.get(path);
        assertTrue(refused.statusCode() == 404 || refused.statusCode() == 400, path + " -> " + refused.statusCode());
        assertTrue(!refused.body().contains("not for the web"), path);
      }
    }
  }

  @Test
  void httpCallsAreCountedAsTheGrpcCallsTheyMirror() throws Exception {
    try (SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("feeds.db"));
        FeedServer server = FeedServer.newBuilder(store).address("127.0.0.1", 0).http("127.0.0.1", 0)
            .metricsAddress("127.0.0.1", 0).build().start()) {
      Http http = Http.on(server.httpPort());
      http.append("s", feed.value(), "a", 0, 3);
      http.get("/v1/spaces/s/blocks?after=x");
      http.post("/v1/spaces/s/subscriptions", "{\"namespaces\":[\"chat\"]}");
      http.get("/v1/server");
      try (SseReader events = SseReader.open(http, "/v1/spaces/s/events")) {
        events.next("caught-up");
        Map<String, Double> samples = MetricsSamples.scrape(server.metricsPort());
        assertEquals(1.0, samples.get("feedstore_calls_total{code=\"OK\",method=\"Append\",transport=\"http\"}"));
        assertEquals(1.0, samples.get(
            "feedstore_calls_total{code=\"INVALID_ARGUMENT\",method=\"Query\",transport=\"http\"}"));
        assertEquals(1.0, samples.get("feedstore_calls_total{code=\"OK\",method=\"Subscribe\",transport=\"http\"}"));
        assertEquals(1.0, samples.get(
            "feedstore_calls_total{code=\"OK\",method=\"GetServerInfo\",transport=\"http\"}"));
        assertEquals(3.0, samples.get("feedstore_appended_positions_total"));
        assertEquals(1.0, samples.get("feedstore_watch_streams"));
        assertTrue(samples.get("feedstore_watch_events_total{transport=\"http\"}") >= 2);
      }
    }
  }

  private static SSLContext trusting(Path certificate) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    try (InputStream in = Files.newInputStream(certificate)) {
      trust.setCertificateEntry("server", CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, factory.getTrustManagers(), null);
    return context;
  }

}
