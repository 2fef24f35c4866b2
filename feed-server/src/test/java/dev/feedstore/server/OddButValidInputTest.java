package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.AppendResponse;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.ListFeedsRequest;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import dev.feedstore.proto.v1.SubscribeRequest;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.testing.BadText;
import dev.feedstore.server.testing.Calls;
import dev.feedstore.server.testing.Census;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Input that looks hostile but is valid, over a socket: each is served as the contract says, and
 * writes exactly what it should (shown by the row census of the file).
 */
class OddButValidInputTest {
  @TempDir Path dir;
  TestServer t;
  final FeedId feed = TestBlocks.feedId();

  @BeforeEach
  void start() {
    t = TestServer.on(dir.resolve("feeds.db")).loopback().start();
    t.blocking().append(Wire.append("s", Wire.block(feed, "a", 0)));
  }

  @AfterEach
  void stop() {
    t.close();
  }

  @Test
  void actorIdsOfAnyPrintableAsciiAndExtremeNumbersAreStoredAsSent() {
    List<Block> blocks = new java.util.ArrayList<>();
    for (BadText odd : BadText.punctuation()) {
      blocks.add(Wire.block(feed, odd.value(), 0));
    }
    blocks.add(Wire.block(feed, "max", 0).toBuilder().setSequence(Long.MAX_VALUE).setTimestamp(Long.MAX_VALUE).build());
    blocks.add(Wire.block(feed, "empty", 0).toBuilder().setData(ByteString.EMPTY).build());
    blocks.add(Wire.block(feed, "~".repeat(128), 0).toBuilder().setPrevActorId("!").setPrevSequence(Long.MAX_VALUE).build());

    assertEquals(List.of(2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L), t.blocking().append(Wire.append("s", blocks)).getPositionsList());

    QueryResponse stored = t.blocking().query(QueryRequest.newBuilder().setSpaceId("s").setCursor(1).build());
    for (int i = 0; i < blocks.size(); i++) {
      assertTrue(stored.getBlocks(i).hasReceivedAt(), "the server stamps what it positions");
      assertEquals(blocks.get(i).toBuilder().setPosition(2 + i).build(), stored.getBlocks(i).toBuilder()
          .clearReceivedAt().build());
    }
  }

  @Test
  void aLowerCaseUlidNamesTheSameFeedInUpperCase() {
    Block lower = Wire.block(feed, "a", 1).toBuilder().setFeedId(feed.value().toLowerCase(Locale.ROOT)).build();

    t.blocking().append(Wire.append("s", lower));

    assertEquals(feed.value(), t.blocking().query(QueryRequest.newBuilder().setSpaceId("s").setCursor(1).build())
        .getBlocks(0).getFeedId());
    assertEquals(1, t.blocking().listFeeds(ListFeedsRequest.newBuilder().setSpaceId("s").build()).getFeedsCount());
  }

  @Test
  void anyRequestIdUpTo128CharactersIsEchoed() {
    for (String id : List.of("", "ñandú \uD83D\uDCA5", "a\u0000b\nc", "r".repeat(128))) {
      assertEquals(id, t.blocking().query(QueryRequest.newBuilder().setSpaceId("s").setRequestId(id).build()).getRequestId());
      assertEquals(id, Calls.firstWatchEvent(t.channel, WatchRequest.newBuilder().setSpaceId("s").setRequestId(id).build())
          .getRequestId());
    }
  }

  @Test
  void duplicatesShareTheirPositionAndAdvanceNothing() {
    Block b = Wire.block(feed, "a", 1);

    AppendResponse twice = t.blocking().append(Wire.append("s", b, b));
    AppendResponse again = t.blocking().append(Wire.append("s", Wire.block(feed, "a", 0), b));
    QueryRequest sameFeedTwice = QueryRequest.newBuilder().setSpaceId("s").addFeedIds(feed.value())
        .addFeedIds(feed.value().toLowerCase(Locale.ROOT)).build();
    String subscription = t.blocking().subscribe(SubscribeRequest.newBuilder().setSpaceId("s").addFeedIds(feed.value())
        .addFeedIds(feed.value()).addNamespaces("n").addNamespaces("n").build()).getSubscriptionId();

    assertEquals(List.of(2L, 2L), twice.getPositionsList());
    assertEquals(List.of(1L, 2L), again.getPositionsList());
    assertEquals(List.of(1L, 2L), QueryTest.positions(t.blocking().query(sameFeedTwice)));
    assertEquals(List.of(1L, 2L), QueryTest.positions(t.blocking().query(
        QueryRequest.newBuilder().setSpaceId("s").setSubscriptionId(subscription).build())));
    assertEquals(List.of(3L), t.blocking().append(Wire.append("s", Wire.block(feed, "a", 2))).getPositionsList());
  }

  @Test
  void aCursorBeyondEverythingReadsNothingAndAForeignTokenReadsFromTheStart() {
    QueryResponse beyond = t.blocking().query(QueryRequest.newBuilder().setSpaceId("s").setCursor(Long.MAX_VALUE).build());
    QueryResponse foreign = t.blocking().query(QueryRequest.newBuilder().setSpaceId("s").setCursor(1)
        .setExpectedServerToken(BadText.LONG.value()).build());

    assertEquals(0, beyond.getBlocksCount());
    assertFalse(beyond.getHasMore());
    assertEquals(1, beyond.getMaxPosition());
    assertFalse(beyond.hasCursorBlock());
    assertEquals(List.of(1L), QueryTest.positions(foreign), "another store's cursor is taken as 0");
    assertTrue(Calls.firstWatchEvent(t.channel, WatchRequest.newBuilder().setSpaceId("s").setCursor(Long.MAX_VALUE)
        .build()).hasCaughtUp());
  }

  @Test
  void theFirstReadOfANewSpaceStoresNothingAndReportsTheTokenTheSpaceWillKeep() {
    Census before = Census.of(t.file);

    String token = t.blocking().listFeeds(ListFeedsRequest.newBuilder().setSpaceId("fresh").build()).getServerToken();

    assertEquals("", Census.of(t.file).changesSince(before));
    assertEquals(token, t.blocking().query(QueryRequest.newBuilder().setSpaceId("fresh").build()).getServerToken());
    assertEquals(token, t.blocking().append(Wire.append("fresh", Wire.block(TestBlocks.feedId(), "a", 0)))
        .getServerToken());
    assertTrue(Census.of(t.file).changesSince(before).startsWith("spaces + 2|fresh|" + token + "\n"));
  }
}
