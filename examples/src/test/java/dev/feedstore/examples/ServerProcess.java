package dev.feedstore.examples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.testing.Await;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The runnable server jar as a separate process: {@code java -jar feed-server.jar --db FILE --port
 * PORT}, started and waited for through the health service, killed with SIGKILL or stopped with
 * SIGTERM. Its output goes to a log file per start. Not thread-safe.
 */
final class ServerProcess implements AutoCloseable {
  private final Path jar;
  private final Path dir;
  private final int port;
  private final ManagedChannel channel;
  private final java.util.List<String> storeFlags;
  private Process process;
  private int starts;

  ServerProcess(Path dir) {
    this(dir, null);
  }

  /**
   * A server whose store {@code storeFlags} name ({@code --postgres URL ...}), or the SQLite file
   * {@code dir/feeds.db} when null; {@code dir} holds its logs.
   */
  ServerProcess(Path dir, java.util.List<String> storeFlags) {
    this.jar = Path.of(System.getProperty("feedserver.jar", "../feed-server/target/feed-server.jar"));
    assertTrue(Files.isRegularFile(jar), "the server jar is built (run the reactor's verify): " + jar.toAbsolutePath());
    this.dir = dir;
    this.port = freePort();
    this.channel = Grpc.newChannelBuilder("127.0.0.1:" + port, InsecureChannelCredentials.create()).build();
    this.storeFlags = storeFlags == null ? java.util.List.of("--db", database().toString()) : storeFlags;
  }

  String address() {
    return "127.0.0.1:" + port;
  }

  Path database() {
    return dir.resolve("feeds.db");
  }

  /** Starts the server on the same port and database as before, and waits until it is SERVING. */
  void start() throws IOException {
    Path log = dir.resolve("server-" + (++starts) + ".log");
    java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of(Processes.java(), "-jar",
        jar.toAbsolutePath().toString(), "--port", Integer.toString(port)));
    command.addAll(storeFlags);
    process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(channel);
    Await.until("the server is SERVING on " + address(), Duration.ofSeconds(60), () -> {
      assertTrue(process.isAlive(), () -> "the server exited:\n" + Processes.read(log));
      try {
        return health.withDeadlineAfter(2, TimeUnit.SECONDS).check(HealthCheckRequest.getDefaultInstance())
            .getStatus() == ServingStatus.SERVING;
      } catch (StatusRuntimeException e) {
        return false;
      }
    });
  }

  /** A channel to the server, for calls of the test's own; the server process owns nothing of it. */
  io.grpc.Channel channel() {
    return channel;
  }

  /** True while the process runs. */
  boolean alive() {
    return process != null && process.isAlive();
  }

  /** SIGKILL: the process dies at once, with no shutdown of any kind. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the server died");
  }

  /** SIGTERM, and the exit code. */
  int stop() throws InterruptedException {
    process.destroy();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the server stopped after SIGTERM");
    return process.exitValue();
  }

  @Override
  public void close() throws InterruptedException {
    channel.shutdownNow();
    if (process != null && process.isAlive()) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
