package dev.feedstore.server.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * One connection to the metrics endpoint: its request head as it arrives, then the answer as it
 * leaves; the connection is closed after one answer ({@code Connection: close}). It reads and
 * writes only what the socket takes without blocking, so a client that sends half a request or
 * stops reading its answer holds nothing but its own connection until its deadline. Not
 * thread-safe: the endpoint's one thread uses it.
 */
final class MetricsConnection {
  /** The largest request head read: a scraper's GET is a few hundred bytes. */
  static final int MAX_REQUEST_HEAD_BYTES = 8192;
  private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final SocketChannel channel;
  private final ByteBuffer request = ByteBuffer.allocate(MAX_REQUEST_HEAD_BYTES);
  /** Null while the request is read. */
  private ByteBuffer answer;
  private long deadlineNanos;

  MetricsConnection(SocketChannel channel, long deadlineNanos) {
    this.channel = channel;
    this.deadlineNanos = deadlineNanos;
  }

  SocketChannel channel() {
    return channel;
  }

  long deadlineNanos() {
    return deadlineNanos;
  }

  boolean answering() {
    return answer != null;
  }

  /**
   * Reads what has arrived; once the request head is whole, prepares the answer, which must be
   * written before {@code answerDeadlineNanos}.
   *
   * @return false if the client closed its side before sending a whole request
   */
  boolean read(Supplier<String> metrics, long answerDeadlineNanos) throws IOException {
    if (channel.read(request) < 0) {
      return false;
    }
    String head = head();
    if (head == null && request.hasRemaining()) {
      return true;
    }
    answer = head == null ? status(431, "Request Header Fields Too Large", "") : answer(head, metrics);
    deadlineNanos = answerDeadlineNanos;
    return true;
  }

  /** Writes what the socket takes; returns true when the whole answer is written. */
  boolean write() throws IOException {
    channel.write(answer);
    return !answer.hasRemaining();
  }

  /** The request line and headers, once the empty line after them has arrived; else null. */
  private String head() {
    String text = new String(request.array(), 0, request.position(), StandardCharsets.ISO_8859_1);
    int end = text.indexOf("\r\n\r\n");
    if (end < 0) {
      end = text.indexOf("\n\n");
    }
    return end < 0 ? null : text.substring(0, end);
  }

  private static ByteBuffer answer(String head, Supplier<String> metrics) {
    String[] requestLine = head.lines().findFirst().orElse("").split(" ");
    if (requestLine.length != 3 || !requestLine[2].startsWith("HTTP/")) {
      return status(400, "Bad Request", "");
    }
    String method = requestLine[0];
    String path = requestLine[1].split("\\?", 2)[0];
    if (!path.equals("/metrics")) {
      return status(404, "Not Found", "");
    }
    if (!method.equals("GET") && !method.equals("HEAD")) {
      return status(405, "Method Not Allowed", "Allow: GET, HEAD\r\n");
    }
    byte[] body = metrics.get().getBytes(StandardCharsets.UTF_8);
    byte[] headers = ("HTTP/1.1 200 OK\r\nContent-Type: " + CONTENT_TYPE + "\r\nContent-Length: " + body.length
        + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
    ByteBuffer answer = ByteBuffer.allocate(headers.length + (method.equals("GET") ? body.length : 0));
    answer.put(headers);
    if (method.equals("GET")) {
      answer.put(body);
    }
    return answer.flip();
  }

  private static ByteBuffer status(int code, String reason, String extraHeaders) {
    return ByteBuffer.wrap(("HTTP/1.1 " + code + " " + reason + "\r\n" + extraHeaders
        + "Content-Length: 0\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
  }
}
