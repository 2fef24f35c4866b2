package dev.feedstore.examples;

import dev.feedstore.server.FeedServer;
import dev.feedstore.sqlite.SqliteFeedStore;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What a self-contained demo needs: a scratch directory for replica files and a channel to a
 * position authority, either one given as {@code host:port} or one this class runs, embedded, on a
 * free loopback port over a SQLite file in the scratch directory. {@link #close} shuts everything
 * down and deletes the directory. Not thread-safe.
 */
public final class DemoSetup implements AutoCloseable {
  private final Path dir;
  private final String address;
  private final ManagedChannel channel;
  private final Optional<SqliteFeedStore> store;
  private final Optional<FeedServer> server;

  private DemoSetup(Path dir, String address, Optional<SqliteFeedStore> store, Optional<FeedServer> server) {
    this.dir = dir;
    this.address = address;
    this.store = store;
    this.server = server;
    this.channel = Grpc.newChannelBuilder(address, InsecureChannelCredentials.create()).build();
  }

  /** Connects to {@code server} ({@code host:port}), or starts an embedded one if it is empty. */
  public static DemoSetup start(Optional<String> server) throws IOException {
    Path dir = Files.createTempDirectory("feedstore-demo-");
    if (server.isPresent()) {
      return new DemoSetup(dir, server.get(), Optional.empty(), Optional.empty());
    }
    // Embedding the server: the caller owns the store and closes it after the server.
    SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("authority.db"));
    FeedServer feedServer = FeedServer.newBuilder(store).address("127.0.0.1", 0).build().start();
    return new DemoSetup(dir, "127.0.0.1:" + feedServer.port(), Optional.of(store), Optional.of(feedServer));
  }

  public Path dir() {
    return dir;
  }

  /** The server's {@code host:port}. */
  public String address() {
    return address;
  }

  /** The channel to the server; this class shuts it down. */
  public ManagedChannel channel() {
    return channel;
  }

  @Override
  public void close() {
    channel.shutdownNow();
    try {
      channel.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    server.ifPresent(FeedServer::close);
    store.ifPresent(SqliteFeedStore::close);
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
