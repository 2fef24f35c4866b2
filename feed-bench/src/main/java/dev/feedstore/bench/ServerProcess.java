package dev.feedstore.bench;

import dev.feedstore.server.FeedServer;
import dev.feedstore.server.ServerSettings;
import dev.feedstore.sqlite.SqliteFeedStore;
import dev.feedstore.sqlite.SqliteSettings;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The child JVM of {@link BenchServer.Child}: the position authority with its shipped settings on a
 * loopback port, answering heap questions on stdin ({@code heap}, {@code reset}, {@code peaks},
 * {@code quit}) so that its heap is measured apart from the clients'.
 */
public final class ServerProcess {
  private ServerProcess() {}

  public static void main(String[] args) throws Exception {
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    System.setProperty("org.jooq.no-logo", "true");
    System.setProperty("org.jooq.no-tips", "true");
    Path db = Path.of(args[0]);
    try (SqliteFeedStore store = SqliteFeedStore.open(db, SqliteSettings.DEFAULTS);
        FeedServer server = FeedServer.newBuilder(store).settings(ServerSettings.DEFAULTS)
            .address("127.0.0.1", 0).build().start()) {
      System.out.println("ready " + server.port());
      System.out.flush();
      BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      String command;
      while ((command = commands.readLine()) != null) {
        switch (command.trim()) {
          case "heap" -> System.out.println("heap " + Heap.usedAfterGc());
          case "reset" -> {
            Heap.resetPeaks();
            System.out.println("reset");
          }
          case "peaks" -> System.out.println("peaks " + Heap.peakUsed() + " " + Heap.peakAfterGc());
          case "cpu" -> System.out.println("cpu " + Heap.processCpuNanos());
          case "quit" -> {
            server.close();
            store.close();
            System.out.println("bye");
            System.out.flush();
            return;
          }
          default -> System.out.println("unknown " + command);
        }
        System.out.flush();
      }
    }
  }
}
