package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.settings.AccessTokens;
import dev.feedstore.server.testing.Http;
import dev.feedstore.testing.Await;
import dev.feedstore.testing.ServerProcess;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runnable jar reloads its access tokens file on SIGHUP: a token added is accepted without a
 * restart, grants per namespace change for the calls that follow, and a file that does not parse
 * keeps the tokens in use, saying so in the log. A SIGHUP
 * from the moment the server accepts connections reloads too: the JVM's default action for it
 * (exit) never applies to a server that can be reached.
 */
class AccessReloadIT {
  @TempDir Path dir;
  ServerProcess server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void sighupReloadsTheTokensFileAndABrokenFileKeepsTheOldOne() throws Exception {
    Path tokens = dir.resolve("tokens");
    Files.writeString(tokens, AccessTokens.sha256("first") + " write *\n");
    int httpPort = ServerProcess.freePort();
    server = ServerProcess.start(dir, "feeds.db", ServerProcess.freePort(), "--access-tokens", tokens.toString(),
        "--http-port", Integer.toString(httpPort));
    Http first = Http.on(httpPort).withToken("first");
    Http second = Http.on(httpPort).withToken("second");
    awaitAnswered("the server answers", first);
    assertEquals(401, second.get("/v1/spaces/s/blocks").statusCode());

    Files.writeString(tokens, AccessTokens.sha256("first") + " write *\n" + AccessTokens.sha256("second") + " read *\n");
    server.signal("HUP");
    awaitAnswered("the second token is accepted", second);
    server.awaitOutput("SIGHUP: reloaded the access tokens file");

    Files.writeString(tokens, "not a token line\n");
    server.signal("HUP");
    server.awaitOutput("SIGHUP: kept the access tokens in use");
    assertEquals(200, second.get("/v1/spaces/s/blocks").statusCode(), "the tokens in use stay");
    server.assertAlive();
    assertFalse(server.output().contains("\tat "), "no stack traces:\n" + server.output());
  }

  @Test
  void sighupAsSoonAsThePortAcceptsConnectionsReloadsInsteadOfEndingTheServer() throws Exception {
    Path tokens = dir.resolve("tokens");
    Files.writeString(tokens, AccessTokens.sha256("first") + " write *\n");
    int grpcPort = ServerProcess.freePort();
    int httpPort = ServerProcess.freePort();
    server = ServerProcess.start(dir, "feeds.db", grpcPort, "--access-tokens", tokens.toString(),
        "--http-port", Integer.toString(httpPort));

    server.awaitAccepting(grpcPort);
    Files.writeString(tokens, AccessTokens.sha256("first") + " write *\n" + AccessTokens.sha256("second") + " read *\n");
    server.signal("HUP");

    awaitAnswered("the token added before the SIGHUP is accepted", Http.on(httpPort).withToken("second"));
    server.awaitOutput("SIGHUP: reloaded the access tokens file");
    server.assertAlive();
  }

  @Test
  void sighupReloadsNamespaceGrantsAndCallsFromThenOnUseThem() throws Exception {
    Path tokens = dir.resolve("tokens");
    String owner = AccessTokens.sha256("owner") + " write s\n";
    Files.writeString(tokens, owner + AccessTokens.sha256("reader") + " read s namespaces=chat\n");
    int httpPort = ServerProcess.freePort();
    server = ServerProcess.start(dir, "feeds.db", ServerProcess.freePort(), "--access-tokens", tokens.toString(),
        "--http-port", Integer.toString(httpPort));
    Http reader = Http.on(httpPort).withToken("reader");
    awaitAnswered("the server answers", Http.on(httpPort).withToken("owner"));
    for (String namespace : List.of("chat", "notes")) {
      assertEquals(200, Http.on(httpPort).withToken("owner").post("/v1/spaces/s/feeds/" + TestBlocks.feedId().value()
          + "/blocks", "{\"namespace\":\"" + namespace + "\",\"blocks\":[{\"actor_id\":\"a\",\"sequence\":0,"
          + "\"data\":\"aGk=\"}]}").statusCode());
    }
    assertEquals(200, reader.get("/v1/spaces/s/blocks?namespace=chat").statusCode());
    assertEquals(403, reader.get("/v1/spaces/s/blocks?namespace=notes").statusCode());

    Files.writeString(tokens, owner + AccessTokens.sha256("reader") + " read s namespaces=notes\n");
    server.signal("HUP");
    server.awaitOutput("SIGHUP: reloaded the access tokens file");

    assertEquals(200, reader.get("/v1/spaces/s/blocks?namespace=notes").statusCode());
    HttpResponse<String> chat = reader.get("/v1/spaces/s/blocks?namespace=chat");
    assertEquals(403, chat.statusCode());
    assertTrue(Http.json(chat).get("message").getAsString().contains("may not read namespace 'chat' of space 's';"
        + " the token may read only namespace 'notes' there"), chat.body());

    Files.writeString(tokens, owner + AccessTokens.sha256("reader") + " admin s namespaces=notes\n");
    server.signal("HUP");
    server.awaitOutput("SIGHUP: kept the access tokens in use");
    assertTrue(server.output().contains("line 2: an admin grant is space-wide"), server.output());
    assertEquals(200, reader.get("/v1/spaces/s/blocks?namespace=notes").statusCode(), "the grants in use stay");
    server.assertAlive();
  }

  @Test
  void aServerStartedWithSighupIgnoredSaysItWillNotReload() throws Exception {
    Path tokens = dir.resolve("tokens");
    Files.writeString(tokens, AccessTokens.sha256("first") + " write *\n");
    int httpPort = ServerProcess.freePort();
    server = ServerProcess.startIgnoringSighup(dir, "feeds.db", ServerProcess.freePort(), "--access-tokens",
        tokens.toString(), "--http-port", Integer.toString(httpPort));
    awaitAnswered("the server answers", Http.on(httpPort).withToken("first"));
    server.awaitOutput("SIGHUP is ignored in this process");
    assertTrue(server.output().contains("not reloaded on SIGHUP: restart the server to change them"), server.output());

    server.signal("HUP");
    assertEquals(200, Http.on(httpPort).withToken("first").get("/v1/spaces/s/blocks").statusCode());
    server.assertAlive();
  }

  /** Waits until {@code http} reads a space with 200, failing at once if the server ended. */
  private void awaitAnswered(String what, Http http) {
    Await.until(what, Duration.ofSeconds(60), () -> {
      server.assertAlive();
      try {
        return http.get("/v1/spaces/s/blocks").statusCode() == 200;
      } catch (RuntimeException e) {
        return false; // not listening yet
      }
    });
  }
}
