package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.SubscribeRequest;
import dev.feedstore.server.testing.Census;
import dev.feedstore.server.testing.HostileCase;
import dev.feedstore.server.testing.TestClock;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hostile-input sweep over a real socket, against a server with default limits on a SQLite
 * file: every field of every RPC empty, huge, of the wrong characters, negative, duplicated or
 * combined wrongly, and messages above {@code max-message-bytes}. Each request gets its documented
 * status, with a description that names the field or the limit and the rule; the database is
 * unchanged, row for row (no space and so no server token, feed, block or subscription, no expiry
 * moved); and the next good Append gets the next position.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostileInputTest {
  @TempDir static Path dir;
  final TestClock clock = new TestClock();
  final FeedId feed = TestBlocks.feedId();
  final FeedId health = TestBlocks.feedId();
  final HostileRequests requests = new HostileRequests(feed);
  TestServer t;
  String expired;
  String foreign;
  String durable;
  String expiredDurable;
  String plain;
  long goodAppends;

  /** The server under the sweep; on a SQLite file here, on PostgreSQL in {@link PostgresHostileInputTest}. */
  void startServer() {
    t = TestServer.on(dir.resolve("feeds.db")).loopback().clock(clock).start();
  }

  io.grpc.ManagedChannel channel() {
    return t.channel;
  }

  dev.feedstore.proto.v1.FeedSyncGrpc.FeedSyncBlockingStub blocking() {
    return t.blocking();
  }

  /** Every row of the store, read past the server. */
  Census census() {
    return Census.of(t.file);
  }

  @BeforeAll
  void start() {
    startServer();
    blocking().append(Wire.append(HostileRequests.SPACE, Wire.block(feed, "a", 0)));
    // Stored before the ones that expire, as storing a subscription purges the expired ones.
    durable = blocking().subscribe(SubscribeRequest.newBuilder().setSpaceId(HostileRequests.SPACE).addNamespaces("n")
        .setDurable(true).setName("worker").build()).getSubscriptionId();
    plain = blocking().subscribe(SubscribeRequest.newBuilder().setSpaceId(HostileRequests.SPACE).addNamespaces("n")
        .build()).getSubscriptionId();
    expired = blocking().subscribe(SubscribeRequest.newBuilder().setSpaceId(HostileRequests.SPACE).addNamespaces("n")
        .setTtlMs(1000).build()).getSubscriptionId();
    foreign = blocking().subscribe(SubscribeRequest.newBuilder().setSpaceId("other").addNamespaces("n").build())
        .getSubscriptionId();
    expiredDurable = blocking().subscribe(SubscribeRequest.newBuilder().setSpaceId(HostileRequests.SPACE)
        .addNamespaces("n").setDurable(true).setAckWithinMs(1000).build()).getSubscriptionId();
    clock.advance(Duration.ofSeconds(2));
  }

  @AfterAll
  void stop() {
    if (t != null) {
      t.close();
    }
  }

  @TestFactory
  Stream<DynamicTest> everyHostileRequestGetsItsStatusWritesNothingAndTheServerKeepsServing() {
    List<HostileCase> cases = Stream.of(HostileIdCases.all(requests), HostileAppendCases.all(requests),
        new HostileScopeCases(requests, expired, foreign).all(), HostileSizeCases.all(requests),
        HostileRetentionCases.all(requests), HostileStartTimeCases.all(requests),
        new HostileDurableCases(requests, durable, expiredDurable, plain, foreign).all()).flatMap(List::stream).toList();
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
      Census before = census();

      StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> c.call().send(channel()), c.name());

      String description = String.valueOf(e.getStatus().getDescription());
      assertEquals(c.code(), e.getStatus().getCode(), c.name() + ": " + description);
      for (String fragment : c.fragments()) {
        assertTrue(description.contains(fragment), c.name() + ": expected '" + fragment + "' in '" + description + "'");
      }
      assertEquals("", census().changesSince(before), c.name() + ": the rejected request wrote nothing");
      assertGoodAppendGetsTheNextPosition(before);
    }));
  }

  /** The server still serves: an Append of a new block gets the position after the highest stored. */
  void assertGoodAppendGetsTheNextPosition(Census before) {
    long expected = before.maxPosition() + 1;
    assertEquals(List.of(expected),
        blocking().append(Wire.append(HostileRequests.SPACE, Wire.block(health, "h", goodAppends))).getPositionsList());
    goodAppends++;
  }
}
