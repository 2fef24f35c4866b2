package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.BLOCK_BYTES;
import static dev.feedstore.server.settings.ServerSettings.HTTP_REFUSED_BODY_BYTES;
import static dev.feedstore.server.settings.ServerSettings.MAX_MESSAGE_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.RawConnection;
import dev.feedstore.server.testing.RawConnection.Answer;
import dev.feedstore.server.testing.TestServer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that writes its whole body before it reads the answer (as most HTTP clients do) reads a
 * refusal of that body, and keeps its connection: the server reads and discards a refused body up
 * to {@code http-refused-body-bytes} before it answers. A larger body is refused without being read,
 * and its connection is closed.
 */
class RefusedBodyTest {
  private static final int TEN_MIB = 10 << 20;

  @TempDir Path dir;
  TestServer t;

  @AfterEach
  void stop() {
    t.close();
  }

  private RawConnection start(long refusedBodyBytes) throws Exception {
    t = TestServer.on(dir.resolve("feeds.db")).settings(ServerSettings.newBuilder().set(BLOCK_BYTES, 1024)
        .set(MAX_MESSAGE_BYTES, 16 * 1024).set(HTTP_REFUSED_BODY_BYTES, refusedBodyBytes).build()).http().start();
    return new RawConnection(t.server.httpPort());
  }

  @Test
  void aStreamAppendOverBlockBytesIsReadThenRefusedAndTheConnectionServesTheNext() throws Exception {
    try (RawConnection connection = start(HTTP_REFUSED_BODY_BYTES.defaultValue())) {
      connection.write(head("PUT", "/v1/stream/big", "Content-Length: 0"));
      Answer created = connection.read();
      assertEquals(201, created.status());

      Answer refused = answerToWhole(connection,
          withBody(head("POST", "/v1/stream/big", "Content-Length: " + TEN_MIB), new byte[TEN_MIB]), 413);

      assertTrue(refused.body().contains("block-bytes limit is 1024"), refused.body());
      connection.write(head("HEAD", "/v1/stream/big", "Content-Length: 0"));
      Answer next = connection.read();
      assertEquals(200, next.status(), "the same connection answers the next request");
      assertEquals(created.headers().get("stream-next-offset"), next.headers().get("stream-next-offset"),
          "nothing was appended");
    }
  }

  @Test
  void aChunkedAppendOverMaxMessageBytesIsReadThenRefused() throws Exception {
    try (RawConnection connection = start(HTTP_REFUSED_BODY_BYTES.defaultValue())) {
      String path = "/v1/spaces/s/feeds/" + TestBlocks.feedId().value() + "/blocks";
      Answer refused = answerToWhole(connection,
          withBody(head("POST", path, "Transfer-Encoding: chunked"), chunked(TEN_MIB)), 413);

      assertTrue(refused.body().contains("max-message-bytes limit is 16384"), refused.body());
      connection.write(head("GET", "/v1/spaces/s/blocks", "Content-Length: 0"));
      Answer next = connection.read();
      assertEquals(200, next.status(), next.body());
      assertTrue(next.body().contains("\"blocks\":[]"), "nothing was appended: " + next.body());
    }
  }

  @Test
  void aBodyToNoEndpointIsReadThenAnswered404() throws Exception {
    try (RawConnection connection = start(HTTP_REFUSED_BODY_BYTES.defaultValue())) {
      answerToWhole(connection,
          withBody(head("POST", "/v1/nothing", "Content-Length: " + TEN_MIB), new byte[TEN_MIB]), 404);
      connection.write(head("GET", "/v1/spaces/s/blocks", "Content-Length: 0"));
      assertEquals(200, connection.read().status());
    }
  }

  @Test
  void aBodyOverTheRefusedBodyBytesIsRefusedUnreadAndItsConnectionClosed() throws Exception {
    try (RawConnection connection = start(1 << 20)) {
      connection.write(head("PUT", "/v1/stream/big", "Content-Length: 0"));
      assertEquals(201, connection.read().status());

      connection.write(head("POST", "/v1/stream/big", "Content-Length: " + TEN_MIB));
      Answer refused = connection.read();

      assertEquals(413, refused.status(), "answered before any of the body was sent: " + refused.body());
      assertTrue(connection.closedByServer(), "the unread body ends the connection");
    }
  }

  /**
   * Writes {@code request} from a thread of its own while reading its answer, as a client that
   * sends its whole body first does; the answer must be {@code status}, and the write must have
   * completed: the server read the whole body instead of breaking the connection.
   */
  private static Answer answerToWhole(RawConnection connection, byte[] request, int status) throws Exception {
    CompletableFuture<Void> written = connection.writeInBackground(request);
    Answer answer = connection.read();
    assertEquals(status, answer.status(), answer.body());
    written.get(30, TimeUnit.SECONDS);
    return answer;
  }

  private static byte[] head(String method, String path, String header) {
    return (method + " " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\n" + header
        + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
  }

  private static byte[] withBody(byte[] head, byte[] body) {
    byte[] request = new byte[head.length + body.length];
    System.arraycopy(head, 0, request, 0, head.length);
    System.arraycopy(body, 0, request, head.length, body.length);
    return request;
  }

  /** {@code size} bytes of JSON-ish text in chunks of 64 KiB, in chunked transfer coding. */
  private static byte[] chunked(int size) {
    ByteArrayOutputStream body = new ByteArrayOutputStream(size + size / 1000);
    byte[] chunk = new byte[64 * 1024];
    java.util.Arrays.fill(chunk, (byte) 'x');
    chunk[0] = '{';
    for (int sent = 0; sent < size; sent += chunk.length) {
      body.writeBytes((Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
      body.writeBytes(chunk);
      body.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
      chunk[0] = 'x';
    }
    body.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
    return body.toByteArray();
  }
}
