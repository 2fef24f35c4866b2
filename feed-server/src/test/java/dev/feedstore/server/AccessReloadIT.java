package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.testing.Await;
import dev.feedstore.server.testing.Http;
import dev.feedstore.server.testing.ServerProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runnable jar reloads its access tokens file on SIGHUP: a token added is accepted without a
 * restart, and a file that does not parse keeps the tokens in use, saying so in the log.
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
    Await.until("the server answers", Duration.ofSeconds(60), () -> answers(first));
    assertEquals(401, second.get("/v1/spaces/s/blocks").statusCode());

    Files.writeString(tokens, AccessTokens.sha256("first") + " write *\n" + AccessTokens.sha256("second") + " read *\n");
    hangUp();
    Await.until("the second token is accepted", Duration.ofSeconds(30),
        () -> second.get("/v1/spaces/s/blocks").statusCode() == 200);

    Files.writeString(tokens, "not a token line\n");
    hangUp();
    Await.until("the broken file is reported", Duration.ofSeconds(30),
        () -> server.output().contains("SIGHUP: kept the access tokens in use"));
    assertEquals(200, second.get("/v1/spaces/s/blocks").statusCode(), "the tokens in use stay");
    assertTrue(server.output().contains("SIGHUP: reloaded the access tokens file"), server.output());
    assertTrue(!server.output().contains("\tat "), "no stack traces:\n" + server.output());
  }

  private static boolean answers(Http http) {
    try {
      return http.get("/v1/spaces/s/blocks").statusCode() == 200;
    } catch (RuntimeException e) {
      return false; // not listening yet
    }
  }

  private void hangUp() throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-HUP", Long.toString(server.process().pid())).inheritIO().start();
    assertEquals(0, kill.waitFor());
  }
}
