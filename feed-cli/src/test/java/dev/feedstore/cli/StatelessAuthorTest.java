package dev.feedstore.cli;

import dev.feedstore.server.testing.RestartableServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Predecessor;
import dev.feedstore.core.SpaceId;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stateless author against a competing writer that takes the same actor's next sequence between
 * the author's read and its append (emulated by a client interceptor that appends first).
 */
class StatelessAuthorTest {
  private static final SpaceId DEMO = SpaceId.of("demo");

  @TempDir Path dir;
  RestartableServer server;
  ManagedChannel rival;
  StringWriter remarks = new StringWriter();
  FeedId feed = FeedId.generate();

  @BeforeEach
  void start() {
    server = RestartableServer.loopback(dir);
    rival = channel();
  }

  @AfterEach
  void stop() {
    rival.shutdownNow();
    server.close();
  }

  @Test
  void aSequenceTakenBetweenReadAndAppendIsRetriedAfterTheRivalsBlock() {
    try (AuthorityConnection authority = AuthorityConnection.over(channel(), Duration.ofSeconds(30), racedBy(1))) {
      List<StatelessAuthor.Appended> stored = author(authority, 5).append(feed.value(), List.of(ByteString.copyFromUtf8("mine")));

      assertEquals(1, stored.size());
      List<Block> blocks = server.store().read(tx -> tx.blocks().feed(DEMO, feed));
      assertEquals(List.of("rival-0", "mine"), blocks.stream().map(b -> b.data().toStringUtf8()).toList());
      assertEquals(1, blocks.get(1).sequence().value(), "retried with the next free sequence");
      assertEquals(Optional.of(Predecessor.of(blocks.get(0).key())), blocks.get(1).predecessor());
      assertEquals(2, stored.get(0).position());
      assertTrue(remarks.toString().contains("sequence 0 of feed " + feed + " was taken by another writer as feedctl"),
          remarks.toString());
    }
  }

  @Test
  void whenEveryRetryLosesTheConflictIsReportedWithTheKey() {
    try (AuthorityConnection authority = AuthorityConnection.over(channel(), Duration.ofSeconds(30), racedBy(3))) {
      StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
          () -> author(authority, 2).append(feed.value(), List.of(ByteString.copyFromUtf8("mine"))));

      assertEquals(Status.Code.ALREADY_EXISTS, e.getStatus().getCode());
      assertTrue(e.getStatus().getDescription().contains(feed + "/feedctl/2"), e.getStatus().getDescription());
      assertEquals(3, server.store().read(tx -> tx.blocks().feed(DEMO, feed)).size(), "only the rival's blocks");
    }
  }

  @Test
  void linesSentTogetherThatMeetARivalInTheMiddleAreSentAgainAfterItsBlockInOrder() {
    List<ByteString> lines = new java.util.ArrayList<>();
    for (int i = 0; i < 10; i++) {
      lines.add(ByteString.copyFromUtf8("line-" + i));
    }
    try (AuthorityConnection authority = AuthorityConnection.over(channel(), Duration.ofSeconds(30), racedAt(index -> index == 3))) {
      List<StatelessAuthor.Appended> stored = author(authority, 5, 1).append(feed.value(), lines);

      assertEquals(10, stored.size());
      List<Block> blocks = server.store().read(tx -> tx.blocks().feed(DEMO, feed));
      assertEquals(List.of("line-0", "line-1", "line-2", "rival-3", "line-3", "line-4", "line-5", "line-6", "line-7",
          "line-8", "line-9"), blocks.stream().map(b -> b.data().toStringUtf8()).toList());
      for (int i = 1; i < blocks.size(); i++) {
        assertEquals(Optional.of(Predecessor.of(blocks.get(i - 1).key())), blocks.get(i).predecessor(), "block " + i);
        assertTrue(blocks.get(i).position().isAfter(blocks.get(i - 1).position()), "block " + i);
      }
      assertEquals(List.of("line-0", "line-1", "line-2", "line-3", "line-4", "line-5", "line-6", "line-7", "line-8",
          "line-9"), stored.stream().map(a -> a.block().getData().toStringUtf8()).toList());
      assertTrue(remarks.toString().contains("sequence 3 of feed " + feed + " was taken"), remarks.toString());
    }
  }

  private StatelessAuthor author(AuthorityConnection authority, int retries) {
    return author(authority, retries, 100);
  }

  private StatelessAuthor author(AuthorityConnection authority, int retries, int batch) {
    return new StatelessAuthor(authority, DEMO.value(), "feedctl", Optional.empty(), Clock.systemUTC(), batch, retries,
        8, new HumanPrinter(new PrintWriter(new StringWriter()), new PrintWriter(remarks, true)));
  }

  /** Precedes each of the first {@code races} Appends with a rival's block at the same key. */
  private ClientInterceptor racedBy(int races) {
    return racedAt(index -> index < races);
  }

  /** Precedes the Appends whose index (from 0, in the order sent) {@code raced} accepts with a rival's block at the same key. */
  private ClientInterceptor racedAt(java.util.function.IntPredicate races) {
    AtomicInteger sent = new AtomicInteger();
    return new ClientInterceptor() {
      @Override
      public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
        return new io.grpc.ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
          @Override
          public void sendMessage(Q message) {
            if (message instanceof AppendRequest append && races.test(sent.getAndIncrement())) {
              dev.feedstore.proto.v1.Block mine = append.getBlocks(0);
              FeedSyncGrpc.newBlockingStub(rival).append(AppendRequest.newBuilder().setSpaceId(DEMO.value())
                  .addBlocks(mine.toBuilder().setData(ByteString.copyFromUtf8("rival-" + mine.getSequence()))).build());
            }
            super.sendMessage(message);
          }
        };
      }
    };
  }

  private ManagedChannel channel() {
    return Grpc.newChannelBuilder(server.address(), InsecureChannelCredentials.create()).build();
  }
}
