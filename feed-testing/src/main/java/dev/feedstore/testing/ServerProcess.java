package dev.feedstore.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.grpc.Channel;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The runnable server jar started as a process of its own, as an operator starts it: {@code java
 * -jar feed-server.jar --db FILE --port PORT}. The jar is the {@code feedserver.jar} property (which
 * failsafe sets), else {@code target/feed-server.jar} of the module the tests run in, else {@code
 * ../feed-server/target/feed-server.jar}. The process runs in the test's directory, so a relative
 * {@code --db} is a file there; its output goes to {@code server.log} there, and a {@link #restart}
 * appends to it, so that one log tells the whole story. Not thread-safe.
 */
public final class ServerProcess implements AutoCloseable {
  private static final Duration WAIT = Duration.ofSeconds(60);
  /** Whether coreutils' {@code env} here can set the action of a signal for the command it runs. */
  private static final boolean ENV_SETS_SIGNALS = envSetsSignals();

  private final List<String> command;
  private final Path dir;
  private final Path log;
  private final int port;
  private Process process;
  private ManagedChannel channel;

  private ServerProcess(List<String> command, Path dir, int port) {
    this.command = List.copyOf(command);
    this.dir = dir;
    this.log = dir.resolve("server.log");
    this.port = port;
    launch();
  }

  /**
   * Starts the jar in {@code dir} on {@code port} with {@code --db db} and the extra flags. It returns
   * at once: wait with {@link #awaitServing()} (or {@link #awaitAccepting}, or {@link #awaitExit} for
   * a start that must fail).
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
   * Like {@link #start(Path, String, int, String...)}, but as a user without privileges: as {@code
   * nobody} (uid and gid 65534, through util-linux's {@code setpriv}) when the tests run as root,
   * who may write where file permissions say no, so that a test of those permissions shows what an
   * operator's service user meets. {@code dir} must be open to that user.
   */
  public static ServerProcess startUnprivileged(Path dir, String db, int port, String... flags) {
    boolean root = System.getProperty("user.name").equals("root");
    if (!root) {
      return start(dir, db, port, flags);
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

  /**
   * Like {@link #start(Path, String, int, String...)}, but with SIGHUP ignored in the server's
   * process, as {@code nohup} starts it (through coreutils' {@code env --ignore-signal}); skips the
   * test where that {@code env} option is missing.
   */
  public static ServerProcess startIgnoringSighup(Path dir, String db, int port, String... flags) {
    assumeTrue(ENV_SETS_SIGNALS, "coreutils' env --ignore-signal (8.31 or later) starts a process with SIGHUP"
        + " ignored, and this machine's env has no such option");
    return start(List.of("env", "--ignore-signal=HUP"), builtJar(), dir, List.of(), List.of("--db", db), port, flags);
  }

  /** Whether {@code env} can set a signal's action for the command it runs (coreutils 8.31 or later). */
  private static boolean envSetsSignals() {
    try {
      Process env = new ProcessBuilder("env", "--default-signal=HUP", "true").redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      return env.waitFor(30, TimeUnit.SECONDS) && env.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static Path builtJar() {
    String property = System.getProperty("feedserver.jar");
    List<Path> candidates = property != null
        ? List.of(Path.of(property))
        : List.of(Path.of("target/feed-server.jar"), Path.of("../feed-server/target/feed-server.jar"));
    for (Path jar : candidates) {
      if (Files.isRegularFile(jar)) {
        return jar;
      }
    }
    throw new AssertionError("the runnable server jar is built (./mvnw package builds it): none of "
        + candidates.stream().map(Path::toAbsolutePath).toList() + " is a file");
  }

  private static ServerProcess start(List<String> prefix, Path jar, Path dir, List<String> jvmOptions,
      List<String> store, int port, String... flags) {
    List<String> command = new ArrayList<>();
    if (ENV_SETS_SIGNALS) {
      // SIGHUP at its default action even when the tests run with it ignored (under nohup, say): the
      // server's reload handler is installed only where SIGHUP is not ignored. A prefix that ignores
      // it again comes after this and wins.
      command.addAll(List.of("env", "--default-signal=HUP"));
    }
    command.addAll(prefix);
    command.add(JavaProcess.launcher());
    command.addAll(jvmOptions);
    command.addAll(List.of("-jar", jar.toAbsolutePath().toString()));
    command.addAll(store);
    command.addAll(List.of("--port", Integer.toString(port)));
    command.addAll(List.of(flags));
    return new ServerProcess(command, dir, port);
  }

  private void launch() {
    try {
      process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    } catch (IOException e) {
      throw new UncheckedIOException("starting " + command, e);
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

  /** The gRPC port it was started on. */
  public int port() {
    return port;
  }

  /** {@code 127.0.0.1:PORT}, the gRPC address. */
  public String address() {
    return "127.0.0.1:" + port;
  }

  /**
   * A plain-text channel to {@link #address()}, made at the first call; it reaches the server
   * across {@link #restart}s. {@link #close} shuts it down.
   */
  public ManagedChannel channel() {
    if (channel == null) {
      channel = Grpc.newChannelBuilder(address(), InsecureChannelCredentials.create()).build();
    }
    return channel;
  }

  /**
   * Waits (60 s at most) until the health service says SERVING, over {@link #channel()}; fails at
   * once if the process ended.
   */
  public void awaitServing() {
    awaitServing(channel());
  }

  /** As {@link #awaitServing()}, over {@code channel} (one with TLS, or with a token). */
  public void awaitServing(Channel channel) {
    awaitHealth(channel, "", ServingStatus.SERVING);
  }

  /**
   * Waits (60 s at most) until the health service on {@code channel} says {@code expected} of {@code
   * service}; fails at once if the process ended.
   */
  public void awaitHealth(Channel channel, String service, ServingStatus expected) {
    HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(channel);
    try {
      Await.until("health of '" + service + "' on " + address() + " says " + expected, WAIT, () -> {
        assertAlive();
        try {
          return health.withDeadlineAfter(2, TimeUnit.SECONDS)
              .check(HealthCheckRequest.newBuilder().setService(service).build()).getStatus() == expected;
        } catch (StatusRuntimeException e) {
          return false; // not listening yet
        }
      });
    } catch (AssertionError timedOut) {
      throw new AssertionError(timedOut.getMessage() + "; the server's output ends with:\n" + outputTail(), timedOut);
    }
  }

  /** The last 40 lines of the server's output, for a failure's message. */
  private String outputTail() {
    String[] lines = output().split("\n", -1);
    return String.join("\n", Arrays.asList(lines).subList(Math.max(0, lines.length - 40), lines.length));
  }

  /**
   * Waits (60 s at most) until {@code port} on 127.0.0.1 accepts a connection, which is the first
   * moment a client can reach the server; fails at once if the process ended.
   */
  public void awaitAccepting(int port) {
    Await.until("port " + port + " accepts connections", WAIT, () -> {
      assertAlive();
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
        return true;
      } catch (IOException e) {
        return false; // not listening yet
      }
    });
  }

  /** True while the process runs. */
  public boolean alive() {
    return process.isAlive();
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
    Await.until("the output holds '" + text + "'", WAIT, () -> output().contains(text));
  }

  /** The process of the current start. */
  public Process process() {
    return process;
  }

  /** Waits (60 s at most) for the process to end by itself and returns its exit code. */
  public int awaitExit() {
    try {
      assertTrue(process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS), () -> "the server exits by itself:\n" + output());
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

  /** Stops the process with SIGTERM, as systemd does, waits (60 s at most) and returns its exit code. */
  public int stop() {
    process.destroy();
    return awaitExit();
  }

  /**
   * Starts the same command again (same port, same store, same flags) after the process ended;
   * kills it first if it still runs. Returns at once, as {@link #start(Path, String, int, String...)}.
   */
  public void restart() {
    if (process.isAlive()) {
      kill();
    }
    launch();
  }

  /** Everything the process (and earlier ones in the same directory) wrote. */
  public String output() {
    String text = JavaProcess.outputIn(log);
    return text.isEmpty() ? "(no output yet in " + log + ")" : text;
  }

  /** Shuts down {@link #channel()} and kills the process if it still runs. */
  @Override
  public void close() {
    if (channel != null) {
      channel.shutdownNow();
    }
    if (process.isAlive()) {
      kill();
    }
  }
}
