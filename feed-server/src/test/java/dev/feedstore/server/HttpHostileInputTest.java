package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.BLOCKS_PER_APPEND;
import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.HTTP_IDLE_TIMEOUT_MS;
import static dev.feedstore.server.settings.ServerSettings.MAX_MESSAGE_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.Http;
import dev.feedstore.server.testing.TestServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every hostile input to the HTTP API is answered with its status and a JSON {@code {code,
 * message}} that names the value and the rule, and nothing is written.
 */
class HttpHostileInputTest {
  private static final int BLOCK_BYTES = 1024;
  private static final int MESSAGE_BYTES = 16 * 1024;

  @TempDir Path dir;
  TestServer t;
  Http http;
  final FeedId feed = TestBlocks.feedId();
  String appendPath;

  @BeforeEach
  void start() {
    t = TestServer.on(dir.resolve("feeds.db")).settings(ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000)
        .set(ServerSettings.BLOCK_BYTES, BLOCK_BYTES).set(MAX_MESSAGE_BYTES, MESSAGE_BYTES).set(BLOCKS_PER_APPEND, 10)
        .set(HTTP_IDLE_TIMEOUT_MS, 1_000).build()).http().start();
    http = t.http();
    appendPath = "/v1/spaces/s/feeds/" + feed.value() + "/blocks";
    assertEquals(200, http.append("s", feed.value(), "a", 0, 1).statusCode());
  }

  @AfterEach
  void stop() {
    assertEquals(1, HttpBlocksTest.positions(Http.json(http.get("/v1/spaces/s/blocks"))).size(),
        "nothing but the first block was ever written");
    t.close();
  }

  @Test
  void badBodiesAre400NamingWhatIsWrong() {
    refused(http.post(appendPath, "{not json"), 400, "INVALID_ARGUMENT", "body must be the JSON of an append");
    refused(http.post(appendPath, "{\"blocks\":[{\"actor_id\":\"a\",\"sequence\":1,\"colour\":\"red\"}]}"), 400,
        "INVALID_ARGUMENT", "colour");
    refused(http.post(appendPath, "{\"blocks\":[]}"), 400, "INVALID_ARGUMENT", "blocks must hold at least one block");
    refused(http.post(appendPath, "{\"blocks\":[{\"actor_id\":\"a\",\"sequence\":-1}]}"), 400, "INVALID_ARGUMENT",
        "sequence");
    refused(http.post(appendPath, "{\"blocks\":[{\"actor_id\":\"a\",\"sequence\":1,\"position\":9}]}"), 400,
        "INVALID_ARGUMENT", "blocks[0].position must be absent");
    refused(http.post(appendPath, "{\"blocks\":[{\"actor_id\":\"a\",\"sequence\":1,\"data\":\"***\"}]}"), 400,
        "INVALID_ARGUMENT", "body must be the JSON of an append");
    refused(http.post(appendPath, "{\"blocks\":[{\"feed_id\":\"" + TestBlocks.feedId().value()
        + "\",\"actor_id\":\"a\",\"sequence\":1}]}"), 400, "INVALID_ARGUMENT", "blocks[0].feed_id must be left out");
    refused(http.send(http.request(appendPath).POST(HttpRequest.BodyPublishers.ofByteArray(
        new byte[] {'{', (byte) 0xff, '}'})).build()), 400, "INVALID_ARGUMENT", "body must be UTF-8 JSON");
  }

  @Test
  void bodiesOverALimitAre413NamingIt() {
    String data = Base64.getEncoder().encodeToString(new byte[BLOCK_BYTES + 1]);
    refused(http.post(appendPath, "{\"blocks\":[{\"actor_id\":\"a\",\"sequence\":1,\"data\":\"" + data + "\"}]}"),
        413, "RESOURCE_EXHAUSTED", "block-bytes limit is 1024");
    refused(http.append("s", feed.value(), "a", 1, 11), 413, "RESOURCE_EXHAUSTED", "blocks-per-append limit is 10");
    refused(http.post(appendPath, "{\"blocks\":[]," + "\"namespace\":\"" + "x".repeat(MESSAGE_BYTES) + "\"}"), 413,
        "RESOURCE_EXHAUSTED", "max-message-bytes limit is 16384");
    // Without a length the body is cut off at the limit as it arrives.
    HttpRequest chunked = http.request(appendPath).POST(HttpRequest.BodyPublishers.ofInputStream(
        () -> new java.io.ByteArrayInputStream(("{\"blocks\":[]," + "\"namespace\":\"" + "x".repeat(4 * MESSAGE_BYTES)
            + "\"}").getBytes(StandardCharsets.UTF_8)))).build();
    refused(http.send(chunked), 413, "RESOURCE_EXHAUSTED", "max-message-bytes limit is 16384");
  }

  @Test
  void badCursorsAndIdsAre400NamingTheParameter() {
    refused(http.get("/v1/spaces/s/blocks?after=-1"), 400, "INVALID_ARGUMENT", "after must be a whole number >= 0");
    refused(http.get("/v1/spaces/s/blocks?after=one"), 400, "INVALID_ARGUMENT", "after must be a whole number >= 0");
    refused(http.get("/v1/spaces/s/blocks?limit=100000"), 429, "RESOURCE_EXHAUSTED", "query-limit limit is 1000");
    refused(http.get("/v1/spaces/s/blocks?feed=nope"), 400, "INVALID_ARGUMENT", "feed[0]");
    refused(http.get("/v1/spaces/s/blocks?feed=" + feed.value() + "&namespace=x"), 400, "INVALID_ARGUMENT",
        "at most one of feed, namespace and subscription");
    refused(http.get("/v1/spaces/s/blocks?colour=red"), 400, "INVALID_ARGUMENT", "colour");
    refused(http.get("/v1/spaces/s/blocks?after=1&after=2"), 400, "INVALID_ARGUMENT", "after must be given at most once");
    refused(http.get("/v1/spaces/b%20d/blocks"), 400, "INVALID_ARGUMENT", "space_id");
    refused(http.send(http.request("/v1/spaces/s/events").header("Last-Event-ID", "x").build()), 400,
        "INVALID_ARGUMENT", "Last-Event-ID must be a whole number >= 0");
    refused(http.append("s", "not-a-feed", "a", 0, 1), 400, "INVALID_ARGUMENT", "blocks[0].feed_id");
    refused(http.append("-".repeat(200), feed.value(), "a", 0, 1), 400, "INVALID_ARGUMENT", "space_id");
  }

  @Test
  void pathTricksReachNothing() throws IOException {
    assertEquals(404, http.get("/v1/spaces/s/blocks/extra").statusCode());
    assertEquals(404, http.get("/v2/spaces/s/blocks").statusCode());
    assertEquals(404, http.get("/ui/").statusCode(), "no page unless the server was given one");
    for (String path : new String[] {"/v1/spaces/../spaces/s/blocks", "/v1/spaces/s%2F..%2Fx/blocks",
        "/v1/spaces/%2e%2e/feeds/" + feed.value() + "/blocks", "/v1/spaces/s/feeds/..%2F..%2Fx/blocks", "//v1/spaces"}) {
      String answer = raw("POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
          + "Content-Length: 2\r\nConnection: close\r\n\r\n{}");
      int status = Integer.parseInt(answer.substring(9, 12));
      assertTrue(status == 400 || status == 404 || status == 405, path + " -> " + answer);
      assertTrue(answer.contains("\"code\":"), "a JSON error: " + answer);
    }
  }

  @Test
  void wrongMethodsAre405NamingTheRightOne() {
    HttpResponse<String> delete = http.send(http.request("/v1/spaces/s/blocks").DELETE().build());
    refused(delete, 405, "INVALID_ARGUMENT", "use GET");
    assertEquals("GET", delete.headers().firstValue("Allow").orElse(""));
    HttpResponse<String> get = http.get(appendPath);
    refused(get, 405, "INVALID_ARGUMENT", "use POST");
    assertEquals("POST", get.headers().firstValue("Allow").orElse(""));
    refused(http.post("/v1/spaces/s/events", "{}"), 405, "INVALID_ARGUMENT", "use GET");
  }

  @Test
  void headersTooLargeAre431() throws IOException {
    String answer = raw("GET /v1/spaces/s/blocks HTTP/1.1\r\nHost: x\r\nX-Big: " + "y".repeat(64 * 1024)
        + "\r\nConnection: close\r\n\r\n");
    assertTrue(answer.startsWith("HTTP/1.1 431"), answer);
  }

  @Test
  void aClientThatTricklesItsHeadersHoldsOnlyItsConnectionAndIsCutOff() throws Exception {
    try (Socket slow = new Socket("127.0.0.1", t.server.httpPort())) {
      slow.setSoTimeout(20_000);
      OutputStream out = slow.getOutputStream();
      long started = System.nanoTime();
      out.write("GET /v1/spaces/s/blocks HTTP/1.1\r\nHost: x\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII));
      out.flush();

      assertEquals(200, http.get("/v1/spaces/s/blocks").statusCode(), "others are served meanwhile");
      InputStream in = slow.getInputStream();
      String answer = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
      long heldMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

      assertTrue(answer.isEmpty() || answer.startsWith("HTTP/1.1 4"), answer);
      assertTrue(heldMillis >= 900, "closed after the idle timeout, not before: " + heldMillis + " ms");
    }
  }

  private String raw(String request) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", t.server.httpPort())) {
      socket.setSoTimeout(20_000);
      socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
      socket.getOutputStream().flush();
      return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
    }
  }

  private static void refused(HttpResponse<String> response, int status, String code, String text) {
    assertEquals(status, response.statusCode(), response.body());
    JsonObject body = Http.json(response);
    assertEquals(code, body.get("code").getAsString(), response.body());
    assertTrue(body.get("message").getAsString().contains(text), response.body());
  }
}
