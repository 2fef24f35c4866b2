package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.WATCH_BATCH_BLOCKS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.FeedInfo;
import dev.feedstore.proto.v1.ListFeedsRequest;
import dev.feedstore.proto.v1.ListFeedsResponse;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ListFeeds in pages: feed id order, {@code after_feed_id}, {@code limit}, {@code has_more}. */
class ListFeedsTest {
  private static final int QUERY_LIMIT = 8;

  @TempDir Path dir;
  TestServer t;
  final List<String> all = new ArrayList<>();
  final List<String> data = new ArrayList<>();

  @BeforeEach
  void start() {
    t = TestServer.on(dir.resolve("feeds.db"))
        .settings(ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).set(ServerSettings.QUERY_LIMIT, QUERY_LIMIT)
            .set(WATCH_BATCH_BLOCKS, QUERY_LIMIT).build())
        .start();
    for (int i = 0; i < 21; i++) {
      FeedId feed = TestBlocks.feedId();
      String namespace = i % 3 == 0 ? "data" : "trace";
      t.blocking().append(Wire.append("s", Wire.block(feed, "a", 0)).toBuilder().setNamespace(namespace).build());
      all.add(feed.value());
      if (namespace.equals("data")) {
        data.add(feed.value());
      }
    }
    all.sort(null);
    data.sort(null);
  }

  @AfterEach
  void stop() {
    t.close();
  }

  @Test
  void pagesFollowEachOtherInFeedIdOrderUntilHasMoreIsFalse() {
    assertEquals(all, listAll(ListFeedsRequest.newBuilder().setLimit(5), 5));
    assertEquals(data, listAll(ListFeedsRequest.newBuilder().setNamespace("data").setLimit(3), 3));
  }

  @Test
  void aLimitOfZeroMeansTheServersQueryLimit() {
    ListFeedsResponse first = list(ListFeedsRequest.newBuilder());

    assertEquals(all.subList(0, QUERY_LIMIT), ids(first));
    assertTrue(first.getHasMore());
    assertEquals(all, listAll(ListFeedsRequest.newBuilder(), QUERY_LIMIT));
  }

  @Test
  void aPageThatEndsExactlyAtTheLastFeedSaysSo() {
    ListFeedsResponse page = list(ListFeedsRequest.newBuilder().setAfterFeedId(all.get(all.size() - 4)).setLimit(3));

    assertEquals(all.subList(all.size() - 3, all.size()), ids(page));
    assertFalse(page.getHasMore());
  }

  @Test
  void aBadLimitOrPageStartIsRefusedNamingIt() {
    StatusRuntimeException tooMany = assertThrows(StatusRuntimeException.class,
        () -> list(ListFeedsRequest.newBuilder().setLimit(QUERY_LIMIT + 1)));
    StatusRuntimeException negative = assertThrows(StatusRuntimeException.class,
        () -> list(ListFeedsRequest.newBuilder().setLimit(-1)));
    StatusRuntimeException notAnId = assertThrows(StatusRuntimeException.class,
        () -> list(ListFeedsRequest.newBuilder().setAfterFeedId("last-one")));

    assertEquals(Status.Code.RESOURCE_EXHAUSTED, tooMany.getStatus().getCode());
    assertTrue(tooMany.getStatus().getDescription().contains("query-limit"), tooMany.getStatus().getDescription());
    assertEquals(Status.Code.INVALID_ARGUMENT, negative.getStatus().getCode());
    assertTrue(negative.getStatus().getDescription().startsWith("limit must be >= 0"), negative.getStatus().getDescription());
    assertEquals(Status.Code.INVALID_ARGUMENT, notAnId.getStatus().getCode());
    assertTrue(notAnId.getStatus().getDescription().contains("after_feed_id"), notAnId.getStatus().getDescription());
    assertTrue(notAnId.getStatus().getDescription().contains("last-one"), notAnId.getStatus().getDescription());
  }

  /** Every page from the first, checking that each but the last is full and says has_more. */
  private List<String> listAll(ListFeedsRequest.Builder request, int pageSize) {
    List<String> ids = new ArrayList<>();
    Optional<String> after = Optional.empty();
    while (true) {
      after.ifPresent(request::setAfterFeedId);
      ListFeedsResponse page = list(request);
      ids.addAll(ids(page));
      if (!page.getHasMore()) {
        assertTrue(page.getFeedsCount() <= pageSize);
        return ids;
      }
      assertEquals(pageSize, page.getFeedsCount());
      after = Optional.of(page.getFeeds(page.getFeedsCount() - 1).getFeedId());
    }
  }

  private ListFeedsResponse list(ListFeedsRequest.Builder request) {
    return t.blocking().listFeeds(request.setSpaceId("s").build());
  }

  private static List<String> ids(ListFeedsResponse response) {
    return response.getFeedsList().stream().map(FeedInfo::getFeedId).toList();
  }
}
