package dev.feedstore.bench;

import static dev.feedstore.server.settings.ServerSettings.APPEND_GROUP_BLOCKS;
import static dev.feedstore.server.settings.ServerSettings.APPEND_STREAM_WINDOW;
import static dev.feedstore.server.settings.ServerSettings.LIVE_QUERIES_PER_CONNECTION;
import static dev.feedstore.server.settings.ServerSettings.LIVE_QUERIES_PER_PRINCIPAL;
import static dev.feedstore.server.settings.ServerSettings.LIVE_QUERIES_PER_SERVER;
import static dev.feedstore.server.settings.ServerSettings.PRINCIPAL_REQUESTS_PER_SECOND;
import static dev.feedstore.server.settings.ServerSettings.SSE_GZIP_LEVEL;

import dev.feedstore.server.FeedServer;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.sqlite.SqliteFeedStore;
import dev.feedstore.sqlite.SqliteSettings;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The child JVM of {@link BenchServer.Child}: the position authority with its shipped settings on a
 * loopback port (and its HTTP API on another), answering on stdin: {@code open GROUP_BLOCKS FILE} (serve another database
 * file, in the same JVM, so that its compiled code stays warm, with {@code append-group-blocks} GROUP_BLOCKS), {@code heap}, {@code reset}, {@code peaks}, {@code
 * cpu}, {@code jit} (its compiler threads' CPU), {@code quit}. Its heap is measured apart from the clients'.
 */
public final class ChildServer {
  private static final long BENCH_PRINCIPAL_REQUESTS_PER_SECOND = 1_000_000_000L;
  /** The server's {@code append-stream-window}: the most calls a pipelined case may keep in flight. */
  static final int APPEND_STREAM_WINDOW_CALLS = 1024;

  private static SqliteFeedStore store;
  private static FeedServer server;

  private ChildServer() {}

  public static void main(String[] args) throws Exception {
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    try {
      open(Path.of(args[0]), APPEND_GROUP_BLOCKS.defaultValue());
      BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      String command;
      while ((command = commands.readLine()) != null) {
        String[] words = command.trim().split(" ", 2);
        switch (words[0]) {
          case "open" -> {
            String[] open = words[1].split(" ", 2);
            open(Path.of(open[1]), Integer.parseInt(open[0]));
          }
          case "heap" -> System.out.println("heap " + Heap.usedAfterGc());
          case "reset" -> {
            Heap.resetPeaks();
            System.out.println("reset");
          }
          case "peaks" -> System.out.println("peaks " + Heap.peakUsed() + " " + Heap.peakAfterGc());
          case "cpu" -> System.out.println("cpu " + Heap.processCpuNanos());
          case "jit" -> System.out.println("jit " + CompilerCpu.nanos());
          case "quit" -> {
            close();
            System.out.println("bye");
            System.out.flush();
            return;
          }
          default -> System.out.println("unknown " + command);
        }
        System.out.flush();
      }
    } finally {
      close();
    }
  }

  /**
   * The shipped settings, with {@code append-group-blocks} set, and {@code
   * principal-requests-per-second} raised out of the way: every client of the benchmark is one
   * principal (the host 127.0.0.1 of a server without access control), and 100 concurrent writers
   * on a quiet host send more than its default of 10,000 calls a second. The benchmark measures the
   * store, not that limit. {@code sse-gzip-level} is 6 (deflate's default), so that an event stream
   * goes gzipped to a reader that asks for it ({@link CompressionBench}) and as it is to the others,
   * which send no {@code Accept-Encoding}. {@code live-queries-per-principal} and {@code
   * live-queries-per-connection} are raised to {@code live-queries-per-server}, for the same reason:
   * {@link LiveQueryServerBench} opens 1,100 live queries as that one principal over four connections.
   * {@code append-stream-window} is {@value #APPEND_STREAM_WINDOW_CALLS}, so that the writer of {@link
   * PipelineBench}, not the server's read-ahead, says how many calls are in flight.
   */
  static ServerSettings settings(int appendGroupBlocks) {
    return ServerSettings.DEFAULTS.toBuilder().set(APPEND_GROUP_BLOCKS, appendGroupBlocks)
        .set(PRINCIPAL_REQUESTS_PER_SECOND, BENCH_PRINCIPAL_REQUESTS_PER_SECOND).set(SSE_GZIP_LEVEL, 6)
        .set(APPEND_STREAM_WINDOW, APPEND_STREAM_WINDOW_CALLS)
        .set(LIVE_QUERIES_PER_PRINCIPAL, LIVE_QUERIES_PER_SERVER.defaultValue())
        .set(LIVE_QUERIES_PER_CONNECTION, LIVE_QUERIES_PER_SERVER.defaultValue()).build();
  }

  private static void open(Path db, int appendGroupBlocks) throws IOException {
    close();
    store = SqliteFeedStore.open(db, SqliteSettings.DEFAULTS);
    server = FeedServer.newBuilder(store).settings(settings(appendGroupBlocks)).address("127.0.0.1", 0)
        .http("127.0.0.1", 0).build().start();
    System.out.println("ready " + server.port() + " " + server.httpPort());
    System.out.flush();
  }

  private static void close() {
    if (server != null) {
      server.close();
      server = null;
    }
    if (store != null) {
      store.close();
      store = null;
    }
  }
}
