package dev.feedstore.client;

import static dev.feedstore.client.DurableConsumerTest.JOBS;
import static dev.feedstore.client.DurableConsumerTest.SCOPE;
import static dev.feedstore.client.DurableConsumerTest.SPACE;
import static dev.feedstore.client.DurableConsumerTest.WAIT;
import static dev.feedstore.client.DurableConsumerTest.range;
import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.ConsumerRecorder;
import dev.feedstore.client.testing.Gate;
import dev.feedstore.client.testing.OtherClient;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.DurableSubscription;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.server.testing.TestClock;
import dev.feedstore.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A durable consumer and its subscription's deadline, on an authority whose clock the test moves:
 * renewed while the consumer is idle; expired when a handler outlasts it, which stops the consumer;
 * an expired subscription is never replaced behind the application's back, and starting again where
 * the application chooses meets any compaction since as a typed end, never as a gap.
 */
class ConsumerDeadlineTest {
  private static final Duration ACK_WITHIN = Duration.ofMinutes(1);

  @TempDir Path dir;

  @Test
  void anIdleConsumerRenewsItsDeadlineOnEveryHeartbeat() throws Exception {
    TestClock clock = new TestClock();
    ServerSettings settings = ServerSettings.newBuilder().set(HEARTBEAT_MS, 20).build();
    try (RestartableServer authority = RestartableServer.inProcess(dir, builder -> builder.settings(settings).clock(clock));
        DurableConsumers consumers = DurableConsumers.newBuilder(authority.channel()).ackWithin(ACK_WITHIN).build()) {
      OtherClient other = new OtherClient(authority.channel(), SPACE);
      other.append(TestBlocks.feedId(), JOBS, 1);
      ConsumerRecorder recorder = new ConsumerRecorder();
      DurableConsumer consumer = consumers.consume(SPACE, SCOPE, "worker", recorder);
      Await.until("one block acknowledged", WAIT, () -> consumer.acknowledged().value() == 1);

      for (int round = 0; round < 3; round++) {
        clock.advance(Duration.ofSeconds(40)); // three times 40 s: past one deadline unless renewed
        long now = clock.millis();
        Await.until("the deadline renewed after the clock moved", WAIT,
            () -> other.subscription("worker").orElseThrow().getExpiresAt() >= now + ACK_WITHIN.toMillis());
      }

      DurableSubscription subscription = other.subscription("worker").orElseThrow();
      assertFalse(subscription.getExpired());
      assertEquals(1, subscription.getAcked());
      assertTrue(consumer.end().isEmpty(), "still running: " + consumer.end());
      assertFalse(recorder.events(ConsumerEvent.Heartbeat.class).isEmpty());
    }
  }

  @Test
  void aHandlerThatOutlastsTheDeadlineLetsItExpireAndTheConsumerStopsSayingSo() throws Exception {
    TestClock clock = new TestClock();
    try (RestartableServer authority = RestartableServer.inProcess(dir, builder -> builder.clock(clock));
        DurableConsumers consumers = DurableConsumers.newBuilder(authority.channel()).ackWithin(ACK_WITHIN).build()) {
      new OtherClient(authority.channel(), SPACE).append(TestBlocks.feedId(), JOBS, 3);
      Gate gate = new Gate();
      ConsumerRecorder recorder = new ConsumerRecorder(delivery -> gate.pass());
      DurableConsumer consumer = consumers.consume(SPACE, SCOPE, "worker", recorder);
      gate.awaitHeld();

      clock.advance(ACK_WITHIN.plusSeconds(1));
      gate.open();

      ConsumerEvent.Expired expired = assertInstanceOf(ConsumerEvent.Expired.class, consumer.awaitEnd(WAIT).orElseThrow());
      assertEquals(consumer.subscriptionId().orElseThrow(), expired.subscriptionId());
      assertEquals(Position.NONE, expired.acknowledged(), "the batch whose handler outlasted it is not acknowledged");
      assertEquals(expired, recorder.events().get(recorder.events().size() - 1), "told as its last event");
    }
  }

  @Test
  void afterExpiryTheApplicationChoosesWhereToStartAndACompactionSinceIsAnEndNotAGap() throws Exception {
    TestClock clock = new TestClock();
    try (RestartableServer authority = RestartableServer.inProcess(dir, builder -> builder.clock(clock));
        DurableConsumers consumers = DurableConsumers.newBuilder(authority.channel()).ackWithin(ACK_WITHIN).build()) {
      OtherClient other = new OtherClient(authority.channel(), SPACE);
      FeedId feed = TestBlocks.feedId();
      other.append(feed, JOBS, 10);
      ConsumerRecorder first = new ConsumerRecorder();
      DurableConsumer consumer = consumers.consume(SPACE, SCOPE, "worker", first);
      Await.until("ten acknowledged", WAIT, () -> consumer.acknowledged().value() == 10);
      consumer.close();

      // While no consumer runs: more blocks, the deadline passes (the hold goes), history is compacted.
      other.append(feed, JOBS, 10);
      clock.advance(ACK_WITHIN.plusSeconds(1));
      assertEquals(15, other.compact(15));

      ConsumerRecorder resumed = new ConsumerRecorder();
      ConsumerEvent.Expired expired = assertInstanceOf(ConsumerEvent.Expired.class,
          consumers.consume(SPACE, SCOPE, "worker", resumed).awaitEnd(WAIT).orElseThrow());
      assertEquals(Position.of(10), expired.acknowledged());
      assertEquals(List.of(expired), resumed.events(), "not replaced, nothing delivered");
      assertTrue(other.subscription("worker").orElseThrow().getExpired(), "still the expired one");

      ConsumerRecorder fromTen = new ConsumerRecorder();
      ConsumerEvent.Compacted compacted = assertInstanceOf(ConsumerEvent.Compacted.class, consumers.consume(SPACE,
          SCOPE, "worker", StartPoint.after(expired.acknowledged()), fromTen).awaitEnd(WAIT).orElseThrow());
      assertEquals(new ConsumerEvent.Compacted(Position.of(15), Position.of(10)), compacted);
      assertEquals(List.of(), fromTen.handled(), "11..15 are gone: nothing after them is handed over as if they were not");
      assertTrue(fromTen.events(ConsumerEvent.Started.class).get(0).created(), "the expired one was replaced");

      ConsumerRecorder fromFloor = new ConsumerRecorder();
      consumers.consume(SPACE, SCOPE, "worker", StartPoint.after(compacted.floor()), fromFloor);
      Await.until("16..20 handled", WAIT, () -> fromFloor.handled().size() >= 5);
      assertEquals(range(16, 20), fromFloor.handled());
    }
  }

  @Test
  void startingAtTheLatestPositionSkipsTheBacklogOfANewSubscription() throws Exception {
    try (RestartableServer authority = RestartableServer.inProcess(dir);
        DurableConsumers consumers = DurableConsumers.newBuilder(authority.channel()).build()) {
      OtherClient other = new OtherClient(authority.channel(), SPACE);
      FeedId feed = TestBlocks.feedId();
      other.append(feed, JOBS, 4);
      ConsumerRecorder recorder = new ConsumerRecorder();
      DurableConsumer consumer = consumers.consume(SPACE, SCOPE, "tail", StartPoint.LATEST, recorder);
      Await.until("started", WAIT, () -> !recorder.events(ConsumerEvent.Started.class).isEmpty());
      assertEquals(Position.of(4), consumer.acknowledged());

      other.append(feed, JOBS, 2);
      Await.until("the two new blocks handled", WAIT, () -> recorder.handled().size() >= 2);
      assertEquals(List.of(5L, 6L), recorder.handled());
    }
  }
}
