package dev.feedstore.server.testing;

import dev.feedstore.testing.Await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Channel;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The runnable jar ({@code feed-server/target/feed-server.jar}, or the {@code feedserver.jar}
 * property that failsafe sets) started as a process of its own, as the README says: {@code java
 * -jar feed-server.jar --db FILE --port PORT}. Its output goes to a log file in its directory. Not
 * thread-safe.
 */
public final class ServerProcess implements AutoCloseable {
  private final Process process;
  private final Path log;

  private ServerProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /**
   * Starts the jar in {@code dir} on {@code port} with {@code --db db} and the extra flags; output
   * is appended to {@code dir/server.log}, so that restarts keep one log.
   */
  public static ServerProcess start(Path dir, String db, int port, String... flags) {
    return start(List.of(), builtJar(), dir, List.of(), List.of("--db", db), port, flags);
  }

  /** As {@link #start(Path, String, int, String...)}, on the PostgreSQL database at the JDBC URL {@code url}. */
  public static ServerProcess startOnPostgres(Path dir, String url, int port, String... flags) {
    return start(List.of(), builtJar(), dir, List.of(), List.of("--postgres", url), port, flags);
  }

  /** As {@link #start(Path, String, int, String...)}, with options of the JVM, such as {@code -Xmx256m}. */
  public static ServerProcess start(Path dir, List<String> jvmOptions, String db, int port, String... flags) {
    return start(List.of(), builtJar(), dir, jvmOptions, List.of("--db", db), port, flags);
  }

  /**
   * Like {@link #start}, but as a user without privileges: as {@code nobody} (uid and gid 65534,
   * through util-linux's {@code setpriv}) when the tests run as root, who may write where file
   * permissions say no, so that a test of those permissions shows what an operator's service user
   * meets. {@code dir} must be open to that user.
   */
  public static ServerProcess startUnprivileged(Path dir, String db, int port, String... flags) {
    boolean root = System.getProperty("user.name").equals("root");
    if (!root) {
      return start(List.of(), builtJar(), dir, List.of(), List.of("--db", db), port, flags);
    }
    // The unprivileged user may not be able to reach the build's directory (a checkout in a
    // private temporary directory): it runs a copy of the jar in the test's own directory.
    Path copy = dir.resolve("feed-server.jar");
    try {
      if (!Files.exists(copy)) {
        Files.copy(builtJar(), copy);
      }
      copy.toFile().setReadable(true, false);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<String> asNobody = List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups");
    return start(asNobody, copy, dir, List.of(), List.of("--db", db), port, flags);
  }

  private static Path builtJar() {
    Path jar = Path.of(System.getProperty("feedserver.jar", "target/feed-server.jar"));
    assertTrue(Files.isRegularFile(jar), "the runnable jar is built: " + jar.toAbsolutePath());
    return jar;
  }

  private static ServerProcess start(List<String> prefix, Path jar, Path dir, List<String> jvmOptions,
      List<String> store, int port, String... flags) {
    Path log = dir.resolve("server.log");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new ArrayList<>(prefix);
    command.add(java);
    command.addAll(jvmOptions);
    command.addAll(List.of("-jar", jar.toAbsolutePath().toString()));
    command.addAll(store);
    command.addAll(List.of("--port", Integer.toString(port)));
    command.addAll(List.of(flags));
    try {
      Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
      return new ServerProcess(process, log);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A port nobody listens on now. */
  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Waits (60 s at most) until the health service on {@code channel} says SERVING. */
  public void awaitServing(Channel channel) {
    HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(channel);
    Await.until("health says SERVING", Duration.ofSeconds(60), () -> {
      assertAlive();
      try {
        return health.withDeadlineAfter(2, TimeUnit.SECONDS).check(HealthCheckRequest.getDefaultInstance())
            .getStatus() == ServingStatus.SERVING;
      } catch (StatusRuntimeException e) {
        return false; // not listening yet
      }
    });
  }

  /**
   * Waits (60 s at most) until {@code port} on 127.0.0.1 accepts a connection, which is the first
   * moment a client can reach the server; fails at once if the process ended.
   */
  public void awaitAccepting(int port) {
    Await.until("port " + port + " accepts connections", Duration.ofSeconds(60), () -> {
      assertAlive();
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
        return true;
      } catch (IOException e) {
        return false; // not listening yet
      }
    });
  }

  /** Fails with the output if the process ended. */
  public void assertAlive() {
    assertTrue(process.isAlive(), () -> "the server is alive (it exited with " + process.exitValue() + "):\n"
        + output());
  }

  /** Sends the process the signal {@code name} ({@code HUP}, {@code TERM}, ...) with {@code kill}. */
  public void signal(String name) {
    try {
      Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
      assertTrue(kill.waitFor(30, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -" + name + " succeeded");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /**
   * Waits (60 s at most) until the output holds {@code text}: a line the server logs may still be
   * on its way (or half written) when the server already answers.
   */
  public void awaitOutput(String text) {
    Await.until("the output holds '" + text + "'", Duration.ofSeconds(60), () -> output().contains(text));
  }

  public Process process() {
    return process;
  }

  /** Waits (60 s at most) for the process to end by itself and returns its exit code. */
  public int awaitExit() {
    try {
      assertTrue(process.waitFor(60, TimeUnit.SECONDS), () -> "the server exits by itself:\n" + output());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
    return process.exitValue();
  }

  /** Kills the process with SIGKILL, as a crash or the OOM killer would, and waits for it to die. */
  public void kill() {
    try {
      assertTrue(process.destroyForcibly().waitFor(30, TimeUnit.SECONDS), "the server died after SIGKILL");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Everything the process (and earlier ones in the same directory) wrote. */
  public String output() {
    try {
      return Files.readString(log, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(no output: " + e + ")";
    }
  }

  /** Kills the process if it still runs. */
  @Override
  public void close() {
    if (process.isAlive()) {
      kill();
    }
  }
}
