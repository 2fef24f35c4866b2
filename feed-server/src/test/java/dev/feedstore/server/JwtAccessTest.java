package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.jwk.RSAKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.CompactRequest;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.settings.JwtSettings;
import dev.feedstore.server.testing.EventRecorder;
import dev.feedstore.server.testing.Http;
import dev.feedstore.server.testing.Jwts;
import dev.feedstore.server.testing.SseReader;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.testing.CapturedErr;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bearer JWTs for gRPC and HTTP alike: signature, exp, nbf, iss and aud checked (401 /
 * UNAUTHENTICATED otherwise), grants from the claim (403 / PERMISSION_DENIED beyond them), open
 * streams ended when the token expires, tokens never logged.
 */
class JwtAccessTest {
  @TempDir Path dir;
  TestServer t;
  final RSAKey key = Jwts.rsa("k1");
  final FeedId feed = TestBlocks.feedId();

  @AfterEach
  void stop() {
    if (t != null) {
      t.close();
    }
  }

  private void start(JwtSettings settings) {
    t = TestServer.on(dir.resolve("feeds.db")).jwt(settings).http().start();
  }

  private JwtSettings jwks(Path file) {
    return new JwtSettings(Optional.of(file.toString()), Optional.empty(), Optional.of(Jwts.ISSUER),
        Optional.of(Jwts.AUDIENCE), JwtSettings.DEFAULT_GRANTS_CLAIM);
  }

  @Test
  void aValidTokenMayDoWhatItsClaimGrantsOverBothTransports() {
    start(jwks(Jwts.jwksFile(dir.resolve("jwks.json"), key)));
    String token = Jwts.sign(key, Jwts.claims("alice", Map.of("write", List.of("team"), "read", List.of("*"))));

    assertEquals(List.of(1L), t.blocking(token).append(Wire.append("team", Wire.block(feed, "a", 0))).getPositionsList());
    assertEquals(200, t.http().withToken(token).append("team", feed.value(), "a", 1, 1).statusCode());
    assertEquals(200, t.http().withToken(token).get("/v1/spaces/elsewhere/blocks").statusCode(), "read *");
    assertEquals(0, t.blocking(token).query(QueryRequest.newBuilder().setSpaceId("elsewhere").build()).getBlocksCount());

    HttpResponse<String> readOnly = t.http().withToken(token).append("elsewhere", feed.value(), "a", 0, 1);
    assertEquals(403, readOnly.statusCode());
    assertTrue(Http.json(readOnly).get("message").getAsString().contains("may read space 'elsewhere' but not Append"));
  }

  @Test
  void anAdminClaimAllowsCompactingItsSpacesAndWriteDoesNot() {
    start(jwks(Jwts.jwksFile(dir.resolve("jwks.json"), key)));
    String admin = Jwts.sign(key, Jwts.claims("root", Map.of("admin", List.of("team"))));
    String writer = Jwts.sign(key, Jwts.claims("alice", Map.of("write", List.of("*"))));
    t.blocking(admin).append(Wire.append("team", Wire.blocks(feed, "a", 0, 2)));
    CompactRequest compact = CompactRequest.newBuilder().setSpaceId("team").setUpTo(1).build();

    StatusRuntimeException denied = assertThrows(StatusRuntimeException.class, () -> t.blocking(writer).compact(compact));
    assertEquals(Status.Code.PERMISSION_DENIED, denied.getStatus().getCode());
    assertEquals(1, t.blocking(admin).compact(compact).getFloor());
  }

  @Test
  void expiredNotYetValidWronglySignedAndMisaddressedTokensAre401() {
    start(jwks(Jwts.jwksFile(dir.resolve("jwks.json"), key)));
    Map<String, List<String>> all = Map.of("write", List.of("*"));
    Date hourAgo = Date.from(Instant.now().minus(Duration.ofHours(1)));
    Date inAnHour = Date.from(Instant.now().plus(Duration.ofHours(1)));
    Map<String, String> refused = Map.of(
        Jwts.sign(key, Jwts.claims("a", all).expirationTime(hourAgo)), "Expired JWT",
        Jwts.sign(key, Jwts.claims("a", all).notBeforeTime(inAnHour)), "before use time",
        Jwts.sign(Jwts.rsa("k1"), Jwts.claims("a", all)), "Invalid signature",
        Jwts.sign(key, Jwts.claims("a", all).audience("other")), "aud",
        Jwts.sign(key, Jwts.claims("a", all).issuer("https://elsewhere.example")), "iss",
        Jwts.sign(key, Jwts.claims("a", all).subject(null)), "sub",
        Jwts.sign(key, Jwts.claims("a", all).claim("feedstore", "everything")), "'feedstore' claim must be an object");
    try (CapturedErr log = new CapturedErr()) {
      for (Map.Entry<String, String> token : refused.entrySet()) {
        HttpResponse<String> http = t.http().withToken(token.getKey()).get("/v1/spaces/s/blocks");
        assertEquals(401, http.statusCode(), token.getValue() + ": " + http.body());
        assertEquals("UNAUTHENTICATED", Http.json(http).get("code").getAsString());
        assertTrue(Http.json(http).get("message").getAsString().contains(token.getValue()), http.body());
        StatusRuntimeException grpc = assertThrows(StatusRuntimeException.class,
            () -> t.blocking(token.getKey()).append(Wire.append("s", Wire.block(feed, "a", 0))));
        assertEquals(Status.Code.UNAUTHENTICATED, grpc.getStatus().getCode());
        assertTrue(grpc.getStatus().getDescription().contains(token.getValue()), grpc.getStatus().toString());
      }
      String text = log.text();
      assertTrue(text.contains("UNAUTHENTICATED"), "the refusals are logged: " + text);
      for (String token : refused.keySet()) {
        assertFalse(text.contains(token) || text.contains(token.substring(token.lastIndexOf('.') + 1)),
            "a token is never logged");
      }
    }
    assertEquals(0, t.blocking(Jwts.sign(key, Jwts.claims("a", all))).query(QueryRequest.newBuilder().setSpaceId("s")
        .build()).getBlocksCount(), "nothing was written");
  }

  @Test
  void aTokenWithoutTheSpaceIs403() {
    start(jwks(Jwts.jwksFile(dir.resolve("jwks.json"), key)));
    String token = Jwts.sign(key, Jwts.claims("bob", Map.of("read", List.of("ops"))));

    HttpResponse<String> http = t.http().withToken(token).get("/v1/spaces/team/blocks");
    assertEquals(403, http.statusCode());
    assertEquals("PERMISSION_DENIED", Http.json(http).get("code").getAsString());
    assertTrue(Http.json(http).get("message").getAsString().contains("may not use space 'team'"));
    StatusRuntimeException grpc = assertThrows(StatusRuntimeException.class,
        () -> t.blocking(token).query(QueryRequest.newBuilder().setSpaceId("team").build()));
    assertEquals(Status.Code.PERMISSION_DENIED, grpc.getStatus().getCode());
  }

  @Test
  void hmacSignedTokensWorkWithTheSecretFile() throws Exception {
    byte[] secret = "0123456789abcdef0123456789abcdef".getBytes();
    Path file = Files.write(dir.resolve("secret"), secret);
    start(new JwtSettings(Optional.empty(), Optional.of(file), Optional.empty(), Optional.empty(), "feedstore"));

    String token = Jwts.sign(secret, Jwts.claims("c", Map.of("write", List.of("*"))));
    assertEquals(200, t.http().withToken(token).append("s", feed.value(), "a", 0, 1).statusCode());
    String other = Jwts.sign("another-secret-of-thirty-two-bytes".getBytes(), Jwts.claims("c", Map.of("write",
        List.of("*"))));
    assertEquals(401, t.http().withToken(other).get("/v1/spaces/s/blocks").statusCode());
    assertEquals(401, t.http().withToken(Jwts.sign(key, Jwts.claims("c", Map.of("write", List.of("*")))))
        .get("/v1/spaces/s/blocks").statusCode(), "an RSA token on an HMAC server");
  }

  @Test
  void rotatedKeysAreTakenWhenTheKeyFileIsReloaded() {
    Path file = Jwts.jwksFile(dir.resolve("jwks.json"), key);
    start(jwks(file));
    RSAKey next = Jwts.rsa("k2");
    String token = Jwts.sign(next, Jwts.claims("d", Map.of("read", List.of("*"))));
    assertEquals(401, t.http().withToken(token).get("/v1/spaces/s/blocks").statusCode());

    Jwts.jwksFile(file, key, next);
    t.server.reloadJwtKeys();

    assertEquals(200, t.http().withToken(token).get("/v1/spaces/s/blocks").statusCode());
  }

  @Test
  void aJwksUrlIsFetchedForItsKeys() throws Exception {
    com.sun.net.httpserver.HttpServer jwks = keyServer(Duration.ZERO);
    try {
      start(fetched(jwks));
      String token = Jwts.sign(key, Jwts.claims("f", Map.of("read", List.of("*"))));

      assertEquals(200, t.http().withToken(token).get("/v1/spaces/s/blocks").statusCode());
      assertEquals(401, t.http().withToken(Jwts.sign(Jwts.rsa("k9"), Jwts.claims("f", Map.of("read", List.of("*")))))
          .get("/v1/spaces/s/blocks").statusCode(), "a key the set does not hold");
    } finally {
      jwks.stop(0);
    }
  }

  @Test
  void aJwksUrlThatAnswersSlowerThanHalfASecondIsWaitedFor() throws Exception {
    // The key server takes a second: longer than the JWKS library's own default timeouts (500 ms),
    // far shorter than the server's (--jwt-jwks-timeout-ms, 5 s), which a loaded key server needs.
    com.sun.net.httpserver.HttpServer jwks = keyServer(Duration.ofSeconds(1));
    try {
      start(fetched(jwks));
      String token = Jwts.sign(key, Jwts.claims("f", Map.of("read", List.of("*"))));

      assertEquals(200, t.http().withToken(token).get("/v1/spaces/s/blocks").statusCode());
    } finally {
      jwks.stop(0);
    }
  }

  /** A key server on loopback answering the JWKS of {@link #key} after {@code delay}. */
  private com.sun.net.httpserver.HttpServer keyServer(Duration delay) throws java.io.IOException {
    com.sun.net.httpserver.HttpServer jwks = com.sun.net.httpserver.HttpServer.create(
        new java.net.InetSocketAddress("127.0.0.1", 0), 0);
    byte[] body = new com.nimbusds.jose.jwk.JWKSet(key).toPublicJWKSet().toString().getBytes();
    jwks.createContext("/jwks.json", exchange -> {
      try {
        Thread.sleep(delay.toMillis()); // the slow peer itself, not a wait for something
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    jwks.start();
    return jwks;
  }

  private static JwtSettings fetched(com.sun.net.httpserver.HttpServer jwks) {
    return new JwtSettings(Optional.of("http://127.0.0.1:" + jwks.getAddress().getPort() + "/jwks.json"),
        Optional.empty(), Optional.of(Jwts.ISSUER), Optional.of(Jwts.AUDIENCE), "feedstore");
  }

  @Test
  void aJwksTimeoutBelowOneMillisecondIsRefusedNamingTheOption() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new JwtSettings(
        Optional.of("http://127.0.0.1:1/jwks.json"), Optional.empty(), Optional.empty(), Optional.empty(),
        "feedstore", Duration.ZERO));
    assertTrue(e.getMessage().contains("--jwt-jwks-timeout-ms") && e.getMessage().contains("was 0"), e.getMessage());
  }

  @Test
  void openStreamsEndWhenTheirTokenExpires() {
    start(jwks(Jwts.jwksFile(dir.resolve("jwks.json"), key)));
    String token = Jwts.sign(key, Jwts.claims("e", Map.of("read", List.of("*")))
        .expirationTime(Date.from(Instant.now().plusSeconds(3))));
    EventRecorder<WatchEvent> watch = new EventRecorder<>();
    dev.feedstore.proto.v1.FeedSyncGrpc.newStub(t.channel(token)).watch(WatchRequest.newBuilder().setSpaceId("s")
        .build(), watch);
    assertTrue(watch.next().hasCaughtUp());
    try (SseReader events = SseReader.open(t.http().withToken(token), "/v1/spaces/s/events")) {
      events.next("caught-up");

      SseReader.Event auth = events.next("auth");
      assertEquals("UNAUTHENTICATED", auth.json().get("code").getAsString());
      assertTrue(auth.json().get("message").getAsString().contains("the access token expired"), auth.data());
      events.awaitEnd();
      Status end = watch.awaitEnd();
      assertEquals(Status.Code.UNAUTHENTICATED, end.getCode());
      assertTrue(end.getDescription().contains("connect again with a fresh token"), end.toString());
    }
    dev.feedstore.testing.Await.until("both streams are released", () -> t.server.openWatches() == 0);
  }
}
