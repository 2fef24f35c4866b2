package dev.feedstore.server;

import static dev.feedstore.server.testing.NamespacedFeeds.SPACE;
import static dev.feedstore.server.testing.NamespacedFeeds.assertRefused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.jwk.RSAKey;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.server.settings.JwtSettings;
import dev.feedstore.server.testing.Http;
import dev.feedstore.server.testing.Jwts;
import dev.feedstore.server.testing.NamespacedFeeds;
import dev.feedstore.server.testing.SseReader;
import dev.feedstore.server.testing.TestServer;
import io.grpc.Status;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Grants per namespace in a JWT's grants claim ({@code {"space": S, "namespaces": [...]}} beside
 * space names), over gRPC and HTTP on loopback: applied as the tokens file's are, and a claim of
 * another shape refused (401 / UNAUTHENTICATED) naming the member and the rule.
 */
class NamespaceGrantsJwtTest {
  @TempDir Path dir;
  TestServer t;
  final RSAKey key = Jwts.rsa("k1");
  NamespacedFeeds feeds;

  @BeforeEach
  void start() {
    t = TestServer.on(dir.resolve("feeds.db")).jwt(new JwtSettings(
        Optional.of(Jwts.jwksFile(dir.resolve("jwks.json"), key).toString()), Optional.empty(),
        Optional.of(Jwts.ISSUER), Optional.of(Jwts.AUDIENCE), JwtSettings.DEFAULT_GRANTS_CLAIM))
        .loopback().http().start();
    feeds = NamespacedFeeds.append(t.blocking(token(Map.of("write", List.of("team")))));
  }

  @AfterEach
  void stop() {
    t.close();
  }

  @Test
  void aClaimMayGrantNamespacesOfASpaceBesideWholeSpaces() {
    String alice = token(Map.of(
        "read", List.of("other", Map.of("space", "team", "namespaces", List.of("chat", "notes"))),
        "write", List.of(Map.of("space", "team", "namespaces", List.of("chat")))));

    assertEquals(2, t.blocking(alice).query(query().setNamespace("notes").build()).getBlocksCount());
    assertEquals(List.of(7L), t.blocking(alice).append(NamespacedFeeds.append(Optional.empty(), feeds.chat(), 2, 1))
        .getPositionsList());
    assertEquals(0, t.blocking(alice).query(QueryRequest.newBuilder().setSpaceId("other").build()).getBlocksCount(),
        "a space name still grants the whole space");
    assertRefused(Status.Code.PERMISSION_DENIED, "Query reads the whole space",
        () -> t.blocking(alice).query(query().build()));
    assertRefused(Status.Code.PERMISSION_DENIED, "may read namespace 'notes' of space 'team' but not Append to it",
        () -> t.blocking(alice).append(NamespacedFeeds.append(Optional.empty(), feeds.notes(), 2, 1)));

    Http http = t.http().withToken(alice);
    assertEquals(200, http.get("/v1/spaces/team/blocks?namespace=chat").statusCode());
    assertEquals(403, http.get("/v1/spaces/team/blocks?feed=" + feeds.plain().value()).statusCode());
    assertEquals(200, http.append(SPACE, feeds.chat().value(), "a", 3, 1).statusCode());
    assertEquals(403, http.append(SPACE, feeds.notes().value(), "a", 2, 1).statusCode());
    try (SseReader chat = SseReader.open(http, "/v1/spaces/team/events?namespace=chat")) {
      assertEquals(List.of(1L, 2L, 7L, 8L), chat.positions(4));
    }
    assertEquals(403, http.get("/v1/spaces/team/events?namespace=other").statusCode());
  }

  @Test
  void aClaimOfAnotherShapeIs401NamingTheMemberAndTheRule() {
    Map<Object, String> refused = Map.of(
        Map.of("admin", List.of(Map.of("space", "team", "namespaces", List.of("chat")))),
        "'feedstore' claim admin[0]: an admin grant is space-wide",
        Map.of("read", List.of("team", Map.of("space", "team", "namespaces", List.of()))),
        "'feedstore' claim read[1].namespaces must list one namespace or more",
        Map.of("read", List.of(Map.of("space", "team", "namespaces", List.of("chat", "a b")))),
        "'feedstore' claim read[0].namespaces[1]: namespace must be 1-128 characters of",
        Map.of("write", List.of(Map.of("space", "team", "namespace", List.of("chat")))),
        "'feedstore' claim write[0] must have exactly the members space and namespaces",
        Map.of("write", List.of(Map.of("space", "", "namespaces", List.of("chat")))),
        "'feedstore' claim write[0].space must be a space name",
        Map.of("read", List.of(7)),
        "'feedstore' claim read[0] must be a space name (* for every space) or {\"space\": SPACE",
        Map.of("readers", List.of("team")),
        "'feedstore' claim has the member 'readers'; its members are read, write and admin");
    for (Map.Entry<Object, String> claim : refused.entrySet()) {
      String token = Jwts.sign(key, Jwts.claims("mallory", Map.of()).claim("feedstore", claim.getKey()));

      assertRefused(Status.Code.UNAUTHENTICATED, claim.getValue(), () -> t.blocking(token).query(query().build()));
      HttpResponse<String> http = t.http().withToken(token).get("/v1/spaces/team/blocks?namespace=chat");
      assertEquals(401, http.statusCode(), http.body());
      assertTrue(Http.json(http).get("message").getAsString().contains(claim.getValue()), http.body());
    }
    assertEquals(6, t.blocking(token(Map.of("read", List.of("*")))).query(query().build()).getMaxPosition());
  }

  /** A token of subject alice with {@code grants} as its grants claim. */
  private String token(Map<String, ?> grants) {
    return Jwts.sign(key, Jwts.claims("alice", Map.of()).claim("feedstore", grants));
  }

  private static QueryRequest.Builder query() {
    return QueryRequest.newBuilder().setSpaceId(SPACE);
  }
}
