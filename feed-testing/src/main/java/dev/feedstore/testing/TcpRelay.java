package dev.feedstore.testing;

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
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP relay on 127.0.0.1 in front of a server, so that a test can cut connections the way a
 * crashed client or a broken network does: {@link #cutAll} resets both sides at once (RST, no
 * HTTP/2 goodbye); {@link #freeze} keeps every connection open but drops what either side sends,
 * the way a peer that vanished from the network looks, until {@link #thaw} (the network is back);
 * {@link #endToTargetAfter} ends what the clients send after a given number of bytes, as a client
 * that stopped in the middle of a message. Two threads per relayed connection; meant for a handful
 * of connections. A {@link Tap} sees what clients send, to decode their protocol. Thread-safe.
 */
public final class TcpRelay implements AutoCloseable {
  /** Sees the bytes each relayed connection's client sends, as they are relayed. */
  @FunctionalInterface
  public interface Tap {
    /**
     * Called on the connection's pump thread, in the order the client sent them.
     *
     * @param connection the connection's number, from 0 in the order they were accepted
     */
    void toTarget(int connection, byte[] bytes, int length);
  }

  private final ServerSocket listener;
  private final int targetPort;
  private final Tap tap;
  /** Guarded by this. */
  private int accepted;
  private final Thread acceptor;
  /** Guarded by this. */
  private final List<Socket> sockets = new ArrayList<>();
  private volatile boolean frozen;
  private final AtomicLong toTarget = new AtomicLong();
  private final AtomicLong toClients = new AtomicLong();
  private volatile long toTargetLimit = Long.MAX_VALUE;

  /** Starts relaying connections made to {@link #port()} to {@code 127.0.0.1:targetPort}. */
  public TcpRelay(int targetPort) {
    this(targetPort, (connection, bytes, length) -> { });
  }

  /** Starts relaying as {@link #TcpRelay(int)} does, showing {@code tap} what the clients send. */
  public TcpRelay(int targetPort, Tap tap) {
    this.targetPort = targetPort;
    this.tap = tap;
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

  /** How many bytes clients sent that were relayed to the target so far, over every connection. */
  public long relayedToTarget() {
    return toTarget.get();
  }

  /** How many bytes the target sent that were relayed to clients so far, over every connection. */
  public long relayedToClients() {
    return toClients.get();
  }

  /**
   * Relays {@code bytes} more of what clients send, then ends that direction (a FIN after the last
   * byte, so the target reads every relayed byte before the end) and drops the rest; what the target
   * sends still passes. Meant for one connection.
   */
  public void endToTargetAfter(long bytes) {
    toTargetLimit = toTarget.get() + bytes;
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
        int connection;
        synchronized (this) {
          sockets.add(client);
          sockets.add(server);
          connection = accepted++;
        }
        pump(client, server, connection, true);
        pump(server, client, connection, false);
      } catch (IOException e) {
        // the listener closed, or the target refused: nothing to relay
      }
    }
  }

  private void pump(Socket from, Socket to, int connection, boolean towardsTarget) {
    Thread pump = new Thread(() -> {
      byte[] buffer = new byte[64 * 1024];
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        for (int n; (n = in.read(buffer)) >= 0; ) {
          if (frozen || to.isOutputShutdown()) {
            continue;
          }
          if (!towardsTarget) {
            out.write(buffer, 0, n);
            toClients.addAndGet(n);
            continue;
          }
          int passed = (int) Math.min(n, toTargetLimit - toTarget.get());
          tap.toTarget(connection, buffer, passed);
          out.write(buffer, 0, passed);
          toTarget.addAndGet(passed);
          if (toTarget.get() >= toTargetLimit) {
            to.shutdownOutput();
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
