package dev.feedstore.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.ConsumerRecorder;
import dev.feedstore.client.testing.OtherClient;
import dev.feedstore.client.testing.WatchCounter;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.testing.Await;
import io.grpc.ClientInterceptors;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A durable consumer against a real authority (in-process): delivery in position order within its
 * scope, acknowledgement after the handler returns or when the application says, resumption after
 * the last acknowledgement, reconnection after a restart, and what it refuses or is refused.
 */
class DurableConsumerTest {
  static final SpaceId SPACE = SpaceId.of("shop");
  static final Namespace JOBS = Namespace.of("jobs");
  static final Scope SCOPE = Scope.namespace(JOBS);
  static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path dir;

  @Test
  void deliversTheScopeInPositionOrderAndResumesAfterTheLastAcknowledgement() throws Exception {
    try (RestartableServer authority = RestartableServer.inProcess(dir)) {
      OtherClient producer = new OtherClient(authority.channel(), SPACE);
      FeedId jobs = TestBlocks.feedId();
      FeedId other = TestBlocks.feedId();
      producer.append(jobs, JOBS, 5);
      producer.append(other, Namespace.of("other"), 2);
      producer.append(jobs, JOBS, 5);
      ConsumerRecorder first = new ConsumerRecorder();
      try (DurableConsumers consumers = DurableConsumers.newBuilder(authority.channel()).build()) {
        DurableConsumer consumer = consumers.consume(SPACE, SCOPE, "worker", first);
        Await.until("ten blocks handled and acknowledged", WAIT,
            () -> first.handled().size() == 10 && consumer.acknowledged().value() == 12);
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 8L, 9L, 10L, 11L, 12L), first.handled(), "the scope only, in order");
        assertTrue(first.deliveries().stream().allMatch(d -> d.namespace(jobs).equals(java.util.Optional.of(JOBS))));
        ConsumerEvent.Started started = first.events(ConsumerEvent.Started.class).get(0);
        assertTrue(started.created());
        assertEquals(Position.NONE, started.acknowledged());
        assertEquals(consumer.subscriptionId().orElseThrow(), started.subscriptionId());
        assertEquals(12, producer.subscription("worker").orElseThrow().getAcked(), "acknowledged on the authority");
        consumer.close();
        assertInstanceOf(ConsumerEvent.Closed.class, consumer.end().orElseThrow());
        assertInstanceOf(ConsumerEvent.Closed.class, first.events().get(first.events().size() - 1), "told last");
      }

      producer.append(jobs, JOBS, 3);
      ConsumerRecorder second = new ConsumerRecorder();
      try (DurableConsumers consumers = DurableConsumers.newBuilder(authority.channel()).build()) {
        consumers.consume(SPACE, SCOPE, "worker", second);
        Await.until("the three new blocks handled", WAIT, () -> second.handled().size() >= 3);
        assertEquals(List.of(13L, 14L, 15L), second.handled(), "after the last acknowledgement, none of 1..12 again");
        ConsumerEvent.Started resumed = second.events(ConsumerEvent.Started.class).get(0);
        assertFalse(resumed.created());
        assertEquals(Position.of(12), resumed.acknowledged());
      }
    }
  }

  @Test
  void anAuthorityRestartMakesTheConsumerReconnectAndResumeWithNothingLost() throws Exception {
    try (RestartableServer authority = RestartableServer.inProcess(dir)) {
      OtherClient producer = new OtherClient(authority.channel(), SPACE);
      FeedId jobs = TestBlocks.feedId();
      producer.append(jobs, JOBS, 3);
      ConsumerRecorder recorder = new ConsumerRecorder();
      try (DurableConsumers consumers = DurableConsumers.newBuilder(authority.channel())
          .reconnectBackoff(Duration.ofMillis(10), Duration.ofMillis(100)).build()) {
        DurableConsumer consumer = consumers.consume(SPACE, SCOPE, "worker", recorder);
        Await.until("three acknowledged", WAIT, () -> consumer.acknowledged().value() == 3);

        authority.stop();
        Await.until("told it reconnects", WAIT, () -> !recorder.events(ConsumerEvent.Reconnecting.class).isEmpty());
        authority.start();
        producer.append(jobs, JOBS, 2);

        Await.until("five handled", WAIT, () -> recorder.handled().size() >= 5);
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), recorder.handled());
        assertTrue(consumer.end().isEmpty(), "an outage does not stop it");
        assertTrue(recorder.events(ConsumerEvent.Reconnecting.class).get(0).reason().contains("UNAVAILABLE"),
            recorder.events().toString());
      }
    }
  }

  @Test
  void aReplacedStoreEndsTheConsumerWithUnknown() throws Exception {
    try (RestartableServer authority = RestartableServer.inProcess(dir)) {
      new OtherClient(authority.channel(), SPACE).append(TestBlocks.feedId(), JOBS, 2);
      ConsumerRecorder recorder = new ConsumerRecorder();
      try (DurableConsumers consumers = DurableConsumers.newBuilder(authority.channel())
          .reconnectBackoff(Duration.ofMillis(10), Duration.ofMillis(100)).build()) {
        DurableConsumer consumer = consumers.consume(SPACE, SCOPE, "worker", recorder);
        Await.until("two acknowledged", WAIT, () -> consumer.acknowledged().value() == 2);

        authority.wipe();

        ConsumerEvent.End end = consumer.awaitEnd(WAIT).orElseThrow();
        ConsumerEvent.Unknown unknown = assertInstanceOf(ConsumerEvent.Unknown.class, end);
        assertEquals(consumer.subscriptionId().orElseThrow(), unknown.subscriptionId());
        assertEquals(Position.of(2), unknown.acknowledged());
      }
    }
  }

  @Test
  void withManualAcknowledgementNothingIsAcknowledgedUntilTheApplicationSays() throws Exception {
    try (RestartableServer authority = RestartableServer.inProcess(dir)) {
      OtherClient producer = new OtherClient(authority.channel(), SPACE);
      producer.append(TestBlocks.feedId(), JOBS, 5);
      ConsumerRecorder recorder = new ConsumerRecorder();
      try (DurableConsumers consumers = DurableConsumers.newBuilder(authority.channel()).manualAcknowledgement()
          .build()) {
        DurableConsumer consumer = consumers.consume(SPACE, SCOPE, "worker", recorder);
        Await.until("caught up after five", WAIT,
            () -> recorder.handled().size() == 5 && !recorder.events(ConsumerEvent.CaughtUp.class).isEmpty());
        assertEquals(0, producer.subscription("worker").orElseThrow().getAcked(), "the handler returned, nothing acknowledged");
        assertEquals(5, consumer.inFlight());
        Delivery delivery = recorder.deliveries().get(0);

        delivery.acknowledge(Position.of(3));
        Await.until("three acknowledged", WAIT, () -> consumer.acknowledged().value() == 3);
        assertEquals(3, producer.subscription("worker").orElseThrow().getAcked());
        assertEquals(2, consumer.inFlight());
        IllegalArgumentException outside = assertThrows(IllegalArgumentException.class,
            () -> delivery.acknowledge(Position.of(6)));
        assertEquals("upTo must be a position of this delivery, from 1 to 5, was 6", outside.getMessage());

        delivery.acknowledge();
        Await.until("five acknowledged", WAIT, () -> consumer.acknowledged().value() == 5);
        assertEquals(0, consumer.inFlight());
      }
    }
  }

  @Test
  void anAcknowledgementTheHandlerMakesIsSentBeforeTheEventsThatArrivedMeanwhile() throws Exception {
    try (RestartableServer authority = RestartableServer.inProcess(dir)) {
      new OtherClient(authority.channel(), SPACE).append(TestBlocks.feedId(), JOBS, 5);
      WatchCounter counter = new WatchCounter();
      List<Position> acknowledgedWhenCaughtUp = new java.util.concurrent.CopyOnWriteArrayList<>();
      DurableConsumer[] consumer = new DurableConsumer[1];
      ConsumerRecorder recorder = new ConsumerRecorder(delivery -> {
        // The stream's caught-up event has arrived behind the batch before the handler acknowledges it.
        Await.until("the caught-up event received", WAIT, () -> counter.received() == 2);
        delivery.acknowledge();
      }, event -> {
        if (event instanceof ConsumerEvent.CaughtUp) {
          acknowledgedWhenCaughtUp.add(consumer[0].acknowledged());
        }
      });
      try (DurableConsumers consumers = DurableConsumers.newBuilder(
          ClientInterceptors.intercept(authority.channel(), counter)).manualAcknowledgement().build()) {
        synchronized (consumer) {
          consumer[0] = consumers.consume(SPACE, SCOPE, "worker", recorder);
        }
        Await.until("caught up", WAIT, () -> !acknowledgedWhenCaughtUp.isEmpty());
        assertEquals(List.of(Position.of(5)), acknowledgedWhenCaughtUp,
            "acknowledged before the caught-up event that came behind the batch is told");
      }
    }
  }

  @Test
  void closingSendsTheAcknowledgementsAskedForBeforeIt() throws Exception {
    try (RestartableServer authority = RestartableServer.inProcess(dir)) {
      OtherClient producer = new OtherClient(authority.channel(), SPACE);
      producer.append(TestBlocks.feedId(), JOBS, 4);
      DurableConsumer[] self = new DurableConsumer[1];
      ConsumerRecorder recorder = new ConsumerRecorder(delivery -> {
        delivery.acknowledge(Position.of(2)); // the handler takes two blocks and stops its own consumer
        self[0].close();
      });
      try (DurableConsumers consumers = DurableConsumers.newBuilder(authority.channel()).manualAcknowledgement()
          .build()) {
        synchronized (self) {
          self[0] = consumers.consume(SPACE, SCOPE, "worker", recorder);
        }
        ConsumerEvent.End end = self[0].awaitEnd(WAIT).orElseThrow();
        assertInstanceOf(ConsumerEvent.Closed.class, end);
        assertEquals(2, producer.subscription("worker").orElseThrow().getAcked());
        assertEquals(1, recorder.deliveries().size());
      }
    }
  }

  @Test
  void aNameUsedWithAnotherScopeOrABadNameIsRefused() throws Exception {
    try (RestartableServer authority = RestartableServer.inProcess(dir);
        DurableConsumers consumers = DurableConsumers.newBuilder(authority.channel()).build()) {
      new OtherClient(authority.channel(), SPACE).append(TestBlocks.feedId(), JOBS, 1);
      ConsumerRecorder first = new ConsumerRecorder();
      consumers.consume(SPACE, SCOPE, "worker", first);
      Await.until("the first consumer handled its block", WAIT, () -> first.handled().size() == 1);

      DurableConsumer other = consumers.consume(SPACE, Scope.namespace(Namespace.of("other")), "worker",
          new ConsumerRecorder());
      ConsumerEvent.Refused refused = assertInstanceOf(ConsumerEvent.Refused.class,
          other.awaitEnd(WAIT).orElseThrow());
      assertEquals("INVALID_ARGUMENT", refused.code());
      assertTrue(refused.description().contains("another scope"), refused.description());

      DurableConsumer badName = consumers.consume(SPACE, SCOPE, "a\tb", new ConsumerRecorder());
      ConsumerEvent.Refused bad = assertInstanceOf(ConsumerEvent.Refused.class, badName.awaitEnd(WAIT).orElseThrow());
      assertTrue(bad.description().startsWith("name must be 1-128 printable ASCII characters"), bad.description());
    }
  }

  @Test
  void badArgumentsAndSettingsAreRefusedNamingTheRule() {
    try (RestartableServer authority = RestartableServer.inProcess(dir);
        DurableConsumers consumers = DurableConsumers.newBuilder(authority.channel()).build()) {
      IllegalArgumentException whole = assertThrows(IllegalArgumentException.class,
          () -> consumers.consume(SPACE, Scope.WHOLE_SPACE, "worker", d -> {}));
      assertTrue(whole.getMessage().startsWith("scope must name feeds or namespaces of the space"), whole.getMessage());
      assertThrows(IllegalArgumentException.class, () -> consumers.consume(SPACE, Scope.feeds(Set.of()), "w", d -> {}));
      DurableConsumers.Builder builder = DurableConsumers.newBuilder(authority.channel());
      assertEquals("maxBlocksInFlight must be >= 1, was 0",
          assertThrows(IllegalArgumentException.class, () -> builder.maxBlocksInFlight(0)).getMessage());
      assertEquals("handlerAttempts must be >= 1, was 0",
          assertThrows(IllegalArgumentException.class, () -> builder.handlerAttempts(0)).getMessage());
      assertEquals("handlerBackoff needs 0 < initial <= max, was PT2S and PT1S", assertThrows(
          IllegalArgumentException.class, () -> builder.handlerBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
          .getMessage());
      assertEquals("ackWithin must be at least 1 ms, was PT0S",
          assertThrows(IllegalArgumentException.class, () -> builder.ackWithin(Duration.ZERO)).getMessage());
    }
    DurableConsumers closed = DurableConsumers.newBuilder("127.0.0.1:1", ConnectOptions.DEFAULTS).build();
    closed.close();
    assertThrows(IllegalStateException.class, () -> closed.consume(SPACE, SCOPE, "worker", d -> {}));
  }

  static List<Long> range(long first, long last) {
    return LongStream.rangeClosed(first, last).boxed().toList();
  }
}
