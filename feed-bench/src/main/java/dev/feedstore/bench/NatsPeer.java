package dev.feedstore.bench;

import io.nats.client.Connection;
import io.nats.client.JetStream;
import io.nats.client.JetStreamApiException;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.api.PublishAck;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The peer figure of the pipeline part, taken in the same run: NATS JetStream's Java client publishing
 * asynchronously to a {@code nats-server -js} on loopback, one message per block (256 bytes, on
 * {@value AppendWorkload#FEEDS} subjects taking turns, as the store's blocks take turns on feeds), with
 * the same number of publishes in flight as the store's pipelined case and each counted once its
 * acknowledgement arrives. The stream keeps its messages in files. The server is the one found on the
 * {@code PATH} ({@code nats-server}; Debian's package of that name), started for the measurement in a
 * directory of the run and stopped after it. Note that JetStream acknowledges a message once it is
 * written, without an fsync per message (its file store syncs periodically), while the store
 * acknowledges a block only after its commit is durable. Not thread-safe.
 */
final class NatsPeer {
  private static final String PROGRAM = "nats-server";
  private static final int BYTES = 256;

  private NatsPeer() {}

  /** The {@code nats-server} program on the {@code PATH}, if there is one. */
  static Optional<Path> find() {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(java.io.File.pathSeparator)) {
      Path candidate = Path.of(dir, PROGRAM);
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /** What {@code program --version} prints (for example {@code nats-server: v2.9.10}), or "version unknown". */
  static String version(Path program) {
    try {
      Process process = new ProcessBuilder(program.toString(), "--version").redirectErrorStream(true).start();
      String printed = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
          .trim();
      return process.waitFor() == 0 && !printed.isEmpty() ? printed : "version unknown";
    } catch (IOException e) {
      return "version unknown";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "version unknown";
    }
  }

  /**
   * Acknowledged publishes per second, measured for {@code seconds} after {@code warmupSeconds} of the
   * same, with at most {@code inFlight} publishes unacknowledged, and the CPU time per publish of
   * {@code nats-server} and of this process.
   */
  static InFlightRate.Measured publishRate(Path program, Path dir, int inFlight, double warmupSeconds, double seconds)
      throws IOException, InterruptedException, JetStreamApiException {
    int port = freePort();
    Path store = Files.createDirectories(dir.resolve("nats-store"));
    Process server = new ProcessBuilder(List.of(program.toString(), "-js", "-a", "127.0.0.1", "-p",
        Integer.toString(port), "-sd", store.toString()))
        .redirectErrorStream(true).redirectOutput(dir.resolve("nats-server.log").toFile()).start();
    try (Connection connection = connect(server, port)) {
      connection.jetStreamManagement().addStream(StreamConfiguration.builder().name("feedbench")
          .subjects("feedbench.>").storageType(StorageType.File).build());
      JetStream jetStream = connection.jetStream();
      byte[] payload = new byte[BYTES];
      new Random(42).nextBytes(payload);
      long[] published = {0};
      return new InFlightRate<PublishAck>(inFlight,
          () -> jetStream.publishAsync("feedbench.f" + (published[0]++ % AppendWorkload.FEEDS), payload),
          CompletableFuture::join).measure(warmupSeconds, seconds, () -> cpuNanos(server));
    } finally {
      server.destroy();
      if (!server.waitFor(10, TimeUnit.SECONDS)) {
        server.destroyForcibly().waitFor();
      }
    }
  }

  /** The CPU time {@code process} used so far, all its threads (0 where the system cannot tell). */
  private static long cpuNanos(Process process) {
    return process.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
  }

  private static Connection connect(Process server, int port) throws IOException, InterruptedException {
    Options options = Options.builder().server("nats://127.0.0.1:" + port).connectionTimeout(Duration.ofSeconds(2))
        .build();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      if (!server.isAlive()) {
        throw new IOException(PROGRAM + " ended with " + server.exitValue() + " before it took a connection");
      }
      try {
        return Nats.connect(options);
      } catch (IOException notYet) {
        if (System.nanoTime() > deadline) {
          throw new IOException(PROGRAM + " took no connection on port " + port + " within 30 s", notYet);
        }
        server.waitFor(50, TimeUnit.MILLISECONDS); // not listening yet; returns at once if it ended
      }
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
