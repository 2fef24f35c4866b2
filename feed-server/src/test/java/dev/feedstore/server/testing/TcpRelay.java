package dev.feedstore.server.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;

/**
 * A TCP relay on 127.0.0.1 in front of a server, so that a test can cut connections the way a
 * crashed client or a broken network does: {@link #cutAll} resets both sides at once (RST, no
 * HTTP/2 goodbye); {@link #freeze} keeps every connection open but drops what either side sends,
 * the way a peer that vanished from the network looks, until {@link #thaw} (the network is back). Two threads per relayed connection; meant
 * for a handful of connections.
 * Thread-safe.
 */
public final class TcpRelay implements AutoCloseable {
  private final ServerSocket listener;
  private final int targetPort;
  private final Thread acceptor;
  /** Guarded by this. */
  private final List<Socket> sockets = new ArrayList<>();
  private volatile boolean frozen;

  /** Starts relaying connections made to {@link #port()} to {@code 127.0.0.1:targetPort}. */
  public TcpRelay(int targetPort) {
    this.targetPort = targetPort;
    try {
      this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.acceptor = new Thread(this::accept, "tcp-relay-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  public int port() {
    return listener.getLocalPort();
  }

  /** Resets every relayed connection, on both sides. New connections are still relayed. */
  public synchronized void cutAll() {
    for (Socket socket : sockets) {
      try {
        socket.setSoLinger(true, 0);
        socket.close();
      } catch (IOException e) {
        // already gone
      }
    }
    sockets.clear();
  }

  /** From now on, bytes either side sends are read and dropped; no connection closes. */
  public void freeze() {
    frozen = true;
  }

  /**
   * From now on, bytes pass again. What was dropped meanwhile stays lost, so connections that
   * carried traffic while frozen are broken at the protocol level; new ones work.
   */
  public void thaw() {
    frozen = false;
  }

  @Override
  public void close() {
    try {
      listener.close();
    } catch (IOException e) {
      // closing anyway
    }
    cutAll();
  }

  private void accept() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        synchronized (this) {
          sockets.add(client);
          sockets.add(server);
        }
        pump(client, server);
        pump(server, client);
      } catch (IOException e) {
        // the listener closed, or the target refused: nothing to relay
      }
    }
  }

  private void pump(Socket from, Socket to) {
    Thread pump = new Thread(() -> {
      byte[] buffer = new byte[64 * 1024];
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        for (int n; (n = in.read(buffer)) >= 0; ) {
          if (!frozen) {
            out.write(buffer, 0, n);
          }
        }
      } catch (SocketException e) {
        // cut
      } catch (IOException e) {
        // the other side went away
      }
    }, "tcp-relay-pump");
    pump.setDaemon(true);
    pump.start();
  }
}
