package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.testing.Await;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The appending clients of the crash tests ({@link CrashAppender}s, each on its own thread and
 * channel), their gate, and the channels the test itself uses. {@link #close} stops the clients
 * and shuts every channel down. Used by the test thread only.
 */
final class CrashClients implements AutoCloseable {
  final CrashAppender.Gate gate = new CrashAppender.Gate();
  final List<CrashAppender> appenders = new ArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  private final List<ManagedChannel> channels = new ArrayList<>();

  /** A channel to the server on {@code port} of 127.0.0.1, shut down by {@link #close}. */
  ManagedChannel channel(int port) {
    ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1", port, InsecureChannelCredentials.create())
        .build();
    channels.add(channel);
    return channel;
  }

  /**
   * Starts {@code count} clients of the server on {@code port}, each appending batches of one of
   * {@code batchSizes} to {@code ownFeeds} feeds of its own and to {@code shared}.
   */
  void start(int count, int port, int ownFeeds, FeedId shared, Random random, int[] batchSizes) {
    for (int i = 0; i < count; i++) {
      List<FeedId> feeds = new ArrayList<>();
      for (int f = 0; f < ownFeeds; f++) {
        feeds.add(TestBlocks.feedId());
      }
      feeds.add(shared);
      CrashAppender appender = new CrashAppender("client-" + i, feeds, channel(port), gate, random.nextLong(),
          batchSizes);
      appenders.add(appender);
      Thread thread = new Thread(appender, appender.actor);
      threads.add(thread);
      thread.start();
    }
  }

  /** Every block acknowledged to any client, by key. */
  Map<String, Block> acknowledged() {
    Map<String, Block> all = new HashMap<>();
    appenders.forEach(a -> all.putAll(a.acknowledged));
    return all;
  }

  long acknowledgedCount() {
    return appenders.stream().mapToLong(a -> a.acknowledged.size()).sum();
  }

  long acknowledgedAppends() {
    return appenders.stream().mapToLong(a -> a.acknowledgedAppends.get()).sum();
  }

  long failedCalls() {
    return appenders.stream().mapToLong(a -> a.failedCalls.get()).sum();
  }

  /** Waits (two minutes at most) until {@code blocks} more blocks are acknowledged. */
  void awaitMoreAcknowledged(int blocks) {
    long target = acknowledgedCount() + blocks;
    Await.until(target + " blocks acknowledged", Duration.ofSeconds(120), () -> acknowledgedCount() >= target);
  }

  /** Lets every channel reconnect at once to a restarted server. */
  void resetConnectBackoff() {
    channels.forEach(ManagedChannel::resetConnectBackoff);
  }

  /** Stops the clients after their current call and checks that they ended. */
  void stopAndJoin() throws InterruptedException {
    appenders.forEach(CrashAppender::stop);
    gate.open();
    for (Thread thread : threads) {
      thread.join(30_000);
      assertFalse(thread.isAlive(), thread.getName() + " ended");
    }
  }

  @Override
  public void close() throws InterruptedException {
    appenders.forEach(CrashAppender::stop);
    gate.open();
    for (Thread thread : threads) {
      thread.join(30_000);
    }
    for (ManagedChannel channel : channels) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }
}
