package dev.feedstore.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.testing.Await;
import dev.feedstore.testing.ServerProcess;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * At least once, none skipped, with the runnable server jar killed under load: a producer appends
 * while a durable consumer consumes, the server is SIGKILLed and started again on the same file and
 * port several times (once with the consumer itself started again while the server is down), and
 * at the end every position from 1 to the last was handled, the first time each one came after
 * every position below it; the blocks handled more than once are counted and reported.
 */
class DurableConsumerCrashIT {
  private static final SpaceId SPACE = SpaceId.of("orders");
  private static final Namespace JOBS = Namespace.of("jobs");
  private static final int BLOCKS = 3000;
  private static final int PER_APPEND = 10;
  private static final int KILLS = 4;

  @TempDir Path dir;
  private ServerProcess server;
  private ManagedChannel producerChannel;

  @AfterEach
  void stop() throws InterruptedException {
    if (producerChannel != null) {
      producerChannel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void everyBlockIsHandledAtLeastOnceAndNoneSkippedAcrossServerKillsUnderLoad() throws Exception {
    int port = ServerProcess.freePort();
    String target = "127.0.0.1:" + port;
    server = ServerProcess.start(dir, "feeds.db", port);
    producerChannel = Grpc.newChannelBuilder(target, InsecureChannelCredentials.create()).build();
    server.awaitServing(producerChannel);

    Handled handled = new Handled();
    AtomicLong appended = new AtomicLong();
    AtomicReference<Throwable> producerFailed = new AtomicReference<>();
    Thread producer = new Thread(() -> produce(appended, producerFailed), "producer");
    producer.start();

    DurableConsumers consumers = consumers(target);
    DurableConsumer consumer = consumers.consume(SPACE, Scope.namespace(JOBS), "billing", handled);
    try {
      for (int kill = 1; kill <= KILLS; kill++) {
        long appendedBefore = kill * (long) BLOCKS / (KILLS + 1);
        long handledBefore = handled.distinct();
        Await.until("the producer passed " + appendedBefore + " and the consumer went on", Duration.ofSeconds(120),
            () -> appended.get() >= appendedBefore && handled.distinct() > handledBefore);
        server.kill();
        if (kill == 2) {
          // The consumer's process goes too: what it handled and had not acknowledged comes again.
          consumers.close();
          consumers = consumers(target);
          consumer = consumers.consume(SPACE, Scope.namespace(JOBS), "billing", handled);
        }
        server = ServerProcess.start(dir, "feeds.db", port);
        server.awaitServing(producerChannel);
      }
      producer.join(TimeUnit.MINUTES.toMillis(3));
      assertTrue(producerFailed.get() == null, () -> "the producer failed: " + producerFailed.get());
      assertEquals(BLOCKS, appended.get());

      DurableConsumer running = consumer;
      Await.until("every position handled", Duration.ofSeconds(120),
          () -> handled.distinct() == BLOCKS || running.end().isPresent() || !handled.skips().isEmpty());
      assertEquals(List.of(), handled.skips(), "a position handled for the first time before one below it");
      assertTrue(consumer.end().isEmpty(), "the consumer runs on: " + consumer.end());
      Await.until("everything acknowledged", Duration.ofSeconds(60),
          () -> running.acknowledged().value() == BLOCKS);
    } finally {
      consumers.close();
    }

    for (long position = 1; position <= BLOCKS; position++) {
      assertTrue(handled.times(position) >= 1, "position " + position + " handled");
    }
    assertEquals(BLOCKS, handled.distinct(), "nothing but positions 1.." + BLOCKS);
    long duplicates = handled.total() - BLOCKS;
    System.out.printf("durable consumer across %d server kills under load: %d blocks, handled %d times, %d duplicates"
        + " (%d handled more than once), %d reconnection attempts%n", KILLS, BLOCKS, handled.total(), duplicates,
        handled.repeated(), handled.reconnects());
    assertTrue(handled.reconnects() >= KILLS - 1, "it reconnected after the kills: " + handled.reconnects());
  }

  private static DurableConsumers consumers(String target) {
    return DurableConsumers.newBuilder(target, ConnectOptions.DEFAULTS)
        .reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(500))
        .maxBlocksInFlight(200)
        .build();
  }

  /**
   * Appends {@link #BLOCKS} blocks, {@link #PER_APPEND} at a time, each append retried until the
   * server answers: an append the killed server committed without answering is answered with the
   * positions it has, since the blocks are the same.
   */
  private void produce(AtomicLong appended, AtomicReference<Throwable> failed) {
    FeedId feed = TestBlocks.feedId();
    try {
      for (int sequence = 0; sequence < BLOCKS; sequence += PER_APPEND) {
        AppendRequest request = Wire.append(SPACE.value(), Wire.blocks(feed, "producer", sequence, PER_APPEND))
            .toBuilder().setNamespace(JOBS.value()).build();
        while (true) {
          try {
            FeedSyncGrpc.newBlockingStub(producerChannel).withWaitForReady().withDeadlineAfter(10, TimeUnit.SECONDS)
                .append(request);
            break;
          } catch (StatusRuntimeException e) {
            producerChannel.resetConnectBackoff(); // the server is away: try again
          }
        }
        appended.addAndGet(PER_APPEND);
      }
    } catch (RuntimeException e) {
      failed.set(e);
    }
  }

  /**
   * What the consumers handled: how many times each position, and every position that was handled
   * for the first time before a position below it (a skip). Handlers of the consumers made one after
   * the other share it; each handles on one thread. Thread-safe.
   */
  private static final class Handled implements DeliveryHandler {
    private final Map<Long, AtomicInteger> counts = new ConcurrentHashMap<>();
    private final List<Long> skips = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final AtomicLong total = new AtomicLong();
    private final AtomicInteger reconnects = new AtomicInteger();

    @Override
    public void handle(Delivery delivery) {
      for (dev.feedstore.core.Block block : delivery.blocks()) {
        long position = block.position().value();
        AtomicInteger count = counts.computeIfAbsent(position, p -> new AtomicInteger());
        if (count.getAndIncrement() == 0 && position > 1 && !counts.containsKey(position - 1)) {
          skips.add(position);
        }
        total.incrementAndGet();
      }
    }

    @Override
    public void onEvent(ConsumerEvent event) {
      if (event instanceof ConsumerEvent.Reconnecting) {
        reconnects.incrementAndGet();
      }
    }

    long distinct() {
      return counts.size();
    }

    long total() {
      return total.get();
    }

    int times(long position) {
      AtomicInteger count = counts.get(position);
      return count == null ? 0 : count.get();
    }

    int reconnects() {
      return reconnects.get();
    }

    long repeated() {
      return counts.values().stream().filter(c -> c.get() > 1).count();
    }

    List<Long> skips() {
      return List.copyOf(skips);
    }
  }
}
