package dev.feedstore.server.testing;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * One HTTP/1.1 connection to 127.0.0.1 driven by hand: a request is written as the bytes given (a
 * body may be written by a thread of its own while the answer is read, as a client that sends its
 * whole body before it reads does), and answers are read one by one from the same connection.
 * Reads time out after 30 s. Not thread-safe, except that one write may run beside reads.
 */
public final class RawConnection implements AutoCloseable {
  private final Socket socket;
  private final InputStream in;

  public RawConnection(int port) throws IOException {
    socket = new Socket("127.0.0.1", port);
    socket.setSoTimeout(30_000);
    in = new BufferedInputStream(socket.getInputStream());
  }

  /** An answer: its status, its headers (names in lower case) and its body as text. */
  public record Answer(int status, Map<String, String> headers, String body) {}

  /** Writes {@code bytes} and flushes them. */
  public void write(byte[] bytes) throws IOException {
    OutputStream out = socket.getOutputStream();
    out.write(bytes);
    out.flush();
  }

  /** Writes {@code bytes} on a thread of its own; the future fails with what the write threw. */
  public CompletableFuture<Void> writeInBackground(byte[] bytes) {
    CompletableFuture<Void> written = new CompletableFuture<>();
    Thread writer = new Thread(() -> {
      try {
        write(bytes);
        written.complete(null);
      } catch (IOException | RuntimeException e) {
        written.completeExceptionally(e);
      }
    }, "raw-connection-writer");
    writer.setDaemon(true);
    writer.start();
    return written;
  }

  /** Reads the next answer, whose body has a {@code Content-Length}. */
  public Answer read() throws IOException {
    String statusLine = line();
    if (!statusLine.startsWith("HTTP/1.1 ")) {
      throw new IOException("not an HTTP/1.1 answer: '" + statusLine + "'");
    }
    Map<String, String> headers = new HashMap<>();
    for (String header = line(); !header.isEmpty(); header = line()) {
      int colon = header.indexOf(':');
      headers.put(header.substring(0, colon).trim().toLowerCase(Locale.ROOT), header.substring(colon + 1).trim());
    }
    int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
    byte[] body = in.readNBytes(length);
    if (body.length < length) {
      throw new IOException("the connection ended after " + body.length + " of " + length + " bytes of the body");
    }
    return new Answer(Integer.parseInt(statusLine.substring(9, 12)), headers,
        new String(body, StandardCharsets.UTF_8));
  }

  /** True when the server closed the connection: nothing more arrives. */
  public boolean closedByServer() throws IOException {
    try {
      return in.read() < 0;
    } catch (java.net.SocketException reset) {
      return true;
    }
  }

  private String line() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b < 0) {
        throw new IOException("the connection ended in an answer's head: '" + line + "'");
      }
      if (b != '\r') {
        line.write(b);
      }
    }
    return line.toString(StandardCharsets.ISO_8859_1);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
