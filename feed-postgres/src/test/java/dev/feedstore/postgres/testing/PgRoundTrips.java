package dev.feedstore.postgres.testing;

import dev.feedstore.testing.TcpRelay;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A relay in front of a PostgreSQL server that counts the round trips its clients make: every time
 * a client ends what it sends with a Sync message (the extended query protocol: a statement, a
 * batch of them, a commit) or sends a simple Query, it waits for the server's ReadyForQuery before it
 * goes on. Not counted: the {@code BEGIN} that the driver sends as a simple query right before the
 * first statement of a transaction, without waiting for its answer (the statement's round trip
 * carries it), the empty simple query with which a pool checks that a connection is alive, and the
 * {@code SET application_name} and {@code SET extra_float_digits} that the driver sends when it
 * opens one (the pool's, not the store's: a pool may open a connection at any moment, in the middle
 * of what a test counts). Each round trip is described by the message types it sent and the
 * statements it parsed. Decodes the frontend messages of each
 * connection from its start (connect with {@code sslmode=disable&gssEncMode=disable}: encrypted
 * bytes cannot be read). Thread-safe.
 */
public final class PgRoundTrips implements AutoCloseable {
  private static final int SSL_REQUEST = 80877103;
  private static final int GSS_REQUEST = 80877104;

  private final TcpRelay relay;
  /** Guarded by this. */
  private final Map<Integer, Decoder> decoders = new HashMap<>();
  /** Guarded by this. */
  private final List<String> trips = new ArrayList<>();

  /** Relays to the PostgreSQL server at {@code 127.0.0.1:targetPort}. */
  public PgRoundTrips(int targetPort) {
    this.relay = new TcpRelay(targetPort, this::sent);
  }

  /** The JDBC URL of {@code database} through this relay, unencrypted, as the superuser. */
  public String url(String database) {
    return "jdbc:postgresql://127.0.0.1:" + relay.port() + "/" + database
        + "?user=postgres&sslmode=disable&gssEncMode=disable";
  }

  /** How many round trips the clients made so far, over every connection. */
  public synchronized int count() {
    return trips.size();
  }

  /**
   * What each round trip since the {@code from}th sent, in order: the texts of the statements it
   * parsed (or its simple query), for a failure's message.
   */
  public synchronized List<String> since(int from) {
    return List.copyOf(trips.subList(from, trips.size()));
  }

  @Override
  public void close() {
    relay.close();
  }

  private synchronized void sent(int connection, byte[] bytes, int length) {
    decoders.computeIfAbsent(connection, c -> new Decoder()).take(bytes, length);
  }

  /** The frontend messages of one connection, as they arrive in pieces. Guarded by the outer instance. */
  private final class Decoder {
    private boolean started;
    private final byte[] header = new byte[5];
    private int headerRead;
    private byte[] body;
    private int bodyRead;
    private final StringBuilder parsed = new StringBuilder();
    private final StringBuilder types = new StringBuilder();

    void take(byte[] bytes, int length) {
      int at = 0;
      while (at < length) {
        if (body == null) {
          int headerSize = started ? 5 : 4;
          int n = Math.min(headerSize - headerRead, length - at);
          System.arraycopy(bytes, at, header, headerRead, n);
          headerRead += n;
          at += n;
          if (headerRead == headerSize) {
            int offset = started ? 1 : 0;
            int size = ((header[offset] & 0xff) << 24) | ((header[offset + 1] & 0xff) << 16)
                | ((header[offset + 2] & 0xff) << 8) | (header[offset + 3] & 0xff);
            body = new byte[size - 4];
            bodyRead = 0;
          }
        } else {
          int n = Math.min(body.length - bodyRead, length - at);
          System.arraycopy(bytes, at, body, bodyRead, n);
          bodyRead += n;
          at += n;
        }
        if (body != null && bodyRead == body.length) {
          message();
          body = null;
          headerRead = 0;
        }
      }
    }

    private void message() {
      if (!started) {
        int code = body.length >= 4 ? ((body[0] & 0xff) << 24) | ((body[1] & 0xff) << 16) | ((body[2] & 0xff) << 8)
            | (body[3] & 0xff) : 0;
        started = code != SSL_REQUEST && code != GSS_REQUEST;
        return;
      }
      types.append((char) header[0]);
      switch (header[0]) {
        case 'P' -> {
          // Parse: a name, then the statement's text, each ending with a zero byte.
          int name = indexOfZero(0);
          parsed.append(parsed.length() == 0 ? "" : " | ").append(text(name + 1, indexOfZero(name + 1)));
        }
        case 'S' -> {
          trips.add(types + " " + parsed);
          parsed.setLength(0);
          types.setLength(0);
        }
        case 'Q' -> {
          String query = text(0, indexOfZero(0));
          if (query.isBlank() || query.startsWith("SET application_name")
              || query.startsWith("SET extra_float_digits")) {
            types.setLength(0);
          } else if (query.equals("BEGIN")) {
            parsed.append("BEGIN");
          } else {
            trips.add(types + " " + query);
            types.setLength(0);
          }
        }
        default -> { }
      }
    }

    private int indexOfZero(int from) {
      for (int i = from; i < body.length; i++) {
        if (body[i] == 0) {
          return i;
        }
      }
      return body.length;
    }

    private String text(int from, int to) {
      return new String(body, from, to - from, java.nio.charset.StandardCharsets.UTF_8);
    }
  }
}
