package dev.feedstore.client;

import static dev.feedstore.client.DurableConsumerTest.JOBS;
import static dev.feedstore.client.DurableConsumerTest.SCOPE;
import static dev.feedstore.client.DurableConsumerTest.SPACE;
import static dev.feedstore.client.DurableConsumerTest.WAIT;
import static dev.feedstore.client.DurableConsumerTest.range;
import static dev.feedstore.server.settings.ServerSettings.WATCH_BATCH_BLOCKS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.ConsumerRecorder;
import dev.feedstore.client.testing.Gate;
import dev.feedstore.client.testing.OtherClient;
import dev.feedstore.client.testing.WatchCounter;
import dev.feedstore.core.Position;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.testing.Await;
import io.grpc.ClientInterceptors;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How much a durable consumer takes on: no more than its bound of blocks in flight (the stream is
 * asked for nothing more until acknowledgements make room), and a handler that throws is retried a
 * bounded number of times, then the consumer stops saying so, having acknowledged nothing of the
 * batch. Real authority in-process; the handler is held with a gate, never timed.
 */
class ConsumerFlowTest {
  @TempDir Path dir;

  @Test
  void noMoreThanTheBoundIsInFlightAndTheStreamIsAskedForNothingMoreUntilThereIsRoom() throws Exception {
    ServerSettings settings = ServerSettings.newBuilder().set(WATCH_BATCH_BLOCKS, 5).build();
    try (RestartableServer authority = RestartableServer.inProcess(dir, builder -> builder.settings(settings))) {
      new OtherClient(authority.channel(), SPACE).append(TestBlocks.feedId(), JOBS, 50);
      WatchCounter counter = new WatchCounter();
      Gate gate = new Gate();
      AtomicInteger mostInFlight = new AtomicInteger();
      DurableConsumer[] consumer = new DurableConsumer[1];
      ConsumerRecorder recorder = new ConsumerRecorder(delivery -> {
        if (delivery.first().equals(Position.FIRST)) {
          gate.pass();
        }
        mostInFlight.accumulateAndGet(consumer[0].inFlight(), Math::max);
      });
      try (DurableConsumers consumers = DurableConsumers.newBuilder(
          ClientInterceptors.intercept(authority.channel(), counter)).maxBlocksInFlight(10).build()) {
        synchronized (consumer) {
          consumer[0] = consumers.consume(SPACE, SCOPE, "worker", recorder);
        }
        gate.awaitHeld();
        Await.until("ten blocks in flight", WAIT, () -> consumer[0].inFlight() == 10);

        // Two batches of five arrived, and no request is outstanding: the stream cannot send more.
        assertEquals(2, counter.received(), counter.toString());
        assertEquals(2, counter.requested(), counter.toString());

        gate.open();
        Await.until("all fifty handled", WAIT, () -> recorder.handled().size() >= 50);
        assertEquals(range(1, 50), recorder.handled());
        assertTrue(mostInFlight.get() <= 10, "in flight at most the bound (batches of five fill it exactly): "
            + mostInFlight.get());
      }
    }
  }

  @Test
  void aHandlerThatKeepsThrowingIsHandedTheBatchABoundedNumberOfTimesThenTheConsumerStops() throws Exception {
    try (RestartableServer authority = RestartableServer.inProcess(dir)) {
      OtherClient other = new OtherClient(authority.channel(), SPACE);
      other.append(TestBlocks.feedId(), JOBS, 3);
      IllegalStateException failure = new IllegalStateException("the index is down");
      ConsumerRecorder recorder = new ConsumerRecorder(delivery -> {
        throw failure;
      });
      try (DurableConsumers consumers = DurableConsumers.newBuilder(authority.channel()).handlerAttempts(3)
          .handlerBackoff(Duration.ofMillis(1), Duration.ofMillis(4)).build()) {
        DurableConsumer consumer = consumers.consume(SPACE, SCOPE, "worker", recorder);

        ConsumerEvent.HandlerFailed failed = assertInstanceOf(ConsumerEvent.HandlerFailed.class,
            consumer.awaitEnd(WAIT).orElseThrow());
        assertEquals(new ConsumerEvent.HandlerFailed(Position.of(1), Position.of(3), 3, failure), failed);
        assertEquals(List.of(1, 2, 3), recorder.deliveries().stream().map(Delivery::attempt).toList());
        assertTrue(recorder.deliveries().stream().allMatch(d -> d.first().value() == 1 && d.last().value() == 3));
        assertEquals(Position.NONE, consumer.acknowledged());
        assertEquals(0, other.subscription("worker").orElseThrow().getAcked(), "nothing of the batch acknowledged");
      }
    }
  }

  @Test
  void aHandlerThatRecoversWithinItsAttemptsLosesNothing() throws Exception {
    try (RestartableServer authority = RestartableServer.inProcess(dir)) {
      OtherClient other = new OtherClient(authority.channel(), SPACE);
      other.append(TestBlocks.feedId(), JOBS, 3);
      ConsumerRecorder recorder = new ConsumerRecorder(delivery -> {
        if (delivery.attempt() < 3) {
          throw new IllegalStateException("not yet");
        }
      });
      try (DurableConsumers consumers = DurableConsumers.newBuilder(authority.channel()).handlerAttempts(3)
          .handlerBackoff(Duration.ofMillis(1), Duration.ofMillis(4)).build()) {
        DurableConsumer consumer = consumers.consume(SPACE, SCOPE, "worker", recorder);
        Await.until("acknowledged after the third attempt", WAIT, () -> consumer.acknowledged().value() == 3);
        assertEquals(range(1, 3), recorder.handled());
        other.append(TestBlocks.feedId(), JOBS, 1);
        Await.until("the next block handled", WAIT, () -> recorder.handled().size() == 4);
        assertTrue(consumer.end().isEmpty());
      }
    }
  }
}
