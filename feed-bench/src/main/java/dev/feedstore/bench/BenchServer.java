package dev.feedstore.bench;

import static dev.feedstore.server.settings.ServerSettings.APPEND_GROUP_BLOCKS;

import dev.feedstore.server.FeedServer;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.sqlite.SqliteFeedStore;
import dev.feedstore.sqlite.SqliteSettings;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A position authority as shipped ({@link ServerSettings#DEFAULTS}, SQLite {@code synchronous=FULL}
 * in WAL mode) on a loopback port, by default in a JVM of its own so that its heap is measured apart
 * from the clients'. One server serves the whole run, one fresh database file per case ({@link
 * #reopen}), so that its code is compiled once. Not thread-safe.
 */
abstract class BenchServer implements AutoCloseable {

  /**
   * Starts a server over the database {@code db} (created if missing): in this JVM, or in a child JVM
   * with {@code jvmArgs} on the CPUs {@code limit} allows.
   */
  static BenchServer start(Path db, boolean inProcess, CpuLimit limit, List<String> jvmArgs) {
    return inProcess ? new InProcess(db) : new Child(db, limit, jvmArgs);
  }

  abstract int port();

  /** The port of the server's HTTP API (pages, Server-Sent Events, appends). */
  abstract int httpPort();

  /** Serves the database {@code db} (created if missing) instead, on a new port; returns this. */
  BenchServer reopen(Path db) {
    return reopen(db, APPEND_GROUP_BLOCKS.defaultValue());
  }

  /** As {@link #reopen(Path)}, with the server's {@code append-group-blocks} set to {@code appendGroupBlocks}. */
  abstract BenchServer reopen(Path db, int appendGroupBlocks);

  /** The server's used heap after full collections, in bytes. */
  abstract long usedHeapAfterGc();

  /** Starts the server's heap peaks afresh. */
  abstract void resetPeaks();

  /** The server's peak heap since {@link #resetPeaks}: used (garbage included) and after GC. */
  abstract long[] peaks();

  /** CPU time the server's process used so far (the whole JVM when in process), in nanoseconds. */
  abstract long cpuNanos();

  /** The part of {@link #cpuNanos} the server's JIT compiler threads used ({@link CompilerCpu}). */
  abstract long compilerCpuNanos();

  @Override
  public abstract void close();

  /** A plain-text channel to the server; the caller shuts it down. */
  ManagedChannel channel() {
    return NettyChannelBuilder.forAddress("127.0.0.1", port()).usePlaintext()
        .maxInboundMessageSize(64 << 20).build();
  }

  /**
   * A channel whose callbacks run on its transport threads (gRPC's {@code directExecutor}): for
   * observers that only take a timestamp, so that the benchmark's own clients cost little.
   */
  ManagedChannel directChannel() {
    return NettyChannelBuilder.forAddress("127.0.0.1", port()).usePlaintext()
        .maxInboundMessageSize(64 << 20).directExecutor().build();
  }

  static void shutdown(ManagedChannel channel) {
    channel.shutdownNow();
    try {
      channel.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The server in this JVM (for smoke tests; its heap is not told apart from the clients'). */
  static final class InProcess extends BenchServer {
    private SqliteFeedStore store;
    private FeedServer server;

    InProcess(Path db) {
      reopen(db);
    }

    @Override
    BenchServer reopen(Path db, int appendGroupBlocks) {
      close();
      store = SqliteFeedStore.open(db, SqliteSettings.DEFAULTS);
      try {
        server = FeedServer.newBuilder(store).settings(ChildServer.settings(appendGroupBlocks)).address("127.0.0.1", 0)
            .http("127.0.0.1", 0).build().start();
      } catch (IOException e) {
        store.close();
        throw new UncheckedIOException(e);
      }
      return this;
    }

    @Override
    int port() {
      return server.port();
    }

    @Override
    int httpPort() {
      return server.httpPort();
    }

    @Override
    long usedHeapAfterGc() {
      return Heap.usedAfterGc();
    }

    @Override
    void resetPeaks() {
      Heap.resetPeaks();
    }

    @Override
    long[] peaks() {
      return new long[] {Heap.peakUsed(), Heap.peakAfterGc()};
    }

    @Override
    long cpuNanos() {
      return Heap.processCpuNanos();
    }

    @Override
    long compilerCpuNanos() {
      return CompilerCpu.nanos();
    }

    @Override
    public void close() {
      if (server != null) {
        server.close();
        store.close();
        server = null;
        store = null;
      }
    }
  }

  /** The server in a child JVM ({@link ChildServer}), driven over its stdin and stdout. */
  static final class Child extends BenchServer {
    private final Process process;
    private final BufferedReader out;
    private final BufferedWriter in;
    private int port;
    private int httpPort;

    Child(Path db, CpuLimit limit, List<String> jvmArgs) {
      List<String> command = new ArrayList<>(limit.launcher());
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(limit.jvmArgs(jvmArgs));
      command.add("-cp");
      command.add(System.getProperty("java.class.path"));
      command.add(ChildServer.class.getName());
      command.add(db.toAbsolutePath().toString());
      try {
        process = new ProcessBuilder(command)
            .redirectError(ProcessBuilder.Redirect.appendTo(db.resolveSibling(db.getFileName() + ".log").toFile()))
            .start();
        out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        in = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
        ready(expect("ready"));
      } catch (IOException e) {
        throw new UncheckedIOException("starting the server process " + command, e);
      }
    }

    @Override
    int port() {
      return port;
    }

    @Override
    int httpPort() {
      return httpPort;
    }

    @Override
    BenchServer reopen(Path db, int appendGroupBlocks) {
      ready(ask("open " + appendGroupBlocks + " " + db.toAbsolutePath(), "ready"));
      return this;
    }

    /** Reads the ports of a {@code ready GRPC_PORT HTTP_PORT} line. */
    private void ready(String ports) {
      String[] parts = ports.split(" ");
      port = Integer.parseInt(parts[0]);
      httpPort = Integer.parseInt(parts[1]);
    }

    @Override
    long usedHeapAfterGc() {
      return Long.parseLong(ask("heap", "heap"));
    }

    @Override
    void resetPeaks() {
      ask("reset", "reset");
    }

    @Override
    long cpuNanos() {
      return Long.parseLong(ask("cpu", "cpu"));
    }

    @Override
    long compilerCpuNanos() {
      return Long.parseLong(ask("jit", "jit"));
    }

    @Override
    long[] peaks() {
      String[] parts = ask("peaks", "peaks").split(" ");
      return new long[] {Long.parseLong(parts[0]), Long.parseLong(parts[1])};
    }

    @Override
    public void close() {
      try {
        ask("quit", "bye");
        process.waitFor(30, TimeUnit.SECONDS);
      } catch (RuntimeException e) {
        // fall through to destroy
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (process.isAlive()) {
        process.destroyForcibly();
      }
    }

    private String ask(String command, String answer) {
      try {
        in.write(command);
        in.newLine();
        in.flush();
        return expect(answer);
      } catch (IOException e) {
        throw new UncheckedIOException("talking to the server process", e);
      }
    }

    private String expect(String prefix) throws IOException {
      while (true) {
        String line = out.readLine();
        if (line == null) {
          throw new IOException("the server process ended (exit " + exitCode() + "); see its .log file");
        }
        if (line.startsWith(prefix + " ") || line.equals(prefix)) {
          return line.substring(prefix.length()).trim();
        }
      }
    }

    private String exitCode() {
      try {
        return process.waitFor(5, TimeUnit.SECONDS) ? String.valueOf(process.exitValue()) : "still running";
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return "unknown";
      }
    }
  }
}
