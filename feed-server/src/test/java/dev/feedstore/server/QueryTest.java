package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.RESPONSE_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.ListFeedsRequest;
import dev.feedstore.proto.v1.ListFeedsResponse;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueryTest {
  @TempDir Path dir;
  TestServer t;
  final FeedId data = TestBlocks.feedId();
  final FeedId trace = TestBlocks.feedId();
  final FeedId plain = TestBlocks.feedId();

  @BeforeEach
  void start() {
    t = TestServer.on(dir.resolve("feeds.db")).start();
    // positions: data 1,2  trace 3  plain 4  data 5
    t.blocking().append(Wire.append("s", Wire.blocks(data, "a", 0, 2)).toBuilder().setNamespace("data").build());
    t.blocking().append(Wire.append("s", Wire.block(trace, "a", 0)).toBuilder().setNamespace("trace").build());
    t.blocking().append(Wire.append("s", Wire.block(plain, "a", 0)));
    t.blocking().append(Wire.append("s", Wire.block(data, "a", 2)));
  }

  @AfterEach
  void stop() {
    t.close();
  }

  QueryResponse query(QueryRequest.Builder request) {
    return t.blocking().query(request.setSpaceId("s").build());
  }

  @Test
  void theWholeSpaceIsReadAfterTheCursorInPositionOrder() {
    QueryResponse response = query(QueryRequest.newBuilder().setRequestId("q1").setCursor(2));

    assertEquals(List.of(3L, 4L, 5L), positions(response));
    assertFalse(response.getHasMore());
    assertEquals(5, response.getMaxPosition());
    assertEquals("q1", response.getRequestId());
    assertFalse(response.getServerToken().isEmpty());
    assertEquals(data.value(), response.getCursorBlock().getFeedId());
    assertEquals(1, response.getCursorBlock().getSequence());
  }

  @Test
  void aFeedListScopeReadsOnlyThoseFeeds() {
    QueryResponse response = query(QueryRequest.newBuilder().addFeedIds(data.value()).addFeedIds(plain.value()));

    assertEquals(List.of(1L, 2L, 4L, 5L), positions(response));
  }

  @Test
  void aNamespaceScopeReadsItsFeedsAndNamesTheirNamespaces() {
    QueryResponse response = query(QueryRequest.newBuilder().setNamespace("data"));

    assertEquals(List.of(1L, 2L, 5L), positions(response));
    assertEquals(java.util.Map.of(data.value(), "data"), response.getFeedNamespacesMap());
  }

  @Test
  void feedNamespacesNameOnlyFeedsThatHaveOne() {
    QueryResponse response = query(QueryRequest.newBuilder());

    assertEquals(java.util.Map.of(data.value(), "data", trace.value(), "trace"), response.getFeedNamespacesMap());
  }

  @Test
  void theCursorBlockIsThatOfTheWholeSpaceWhateverTheScope() {
    QueryResponse response = query(QueryRequest.newBuilder().setNamespace("data").setCursor(3));

    assertEquals(trace.value(), response.getCursorBlock().getFeedId());
    assertEquals(List.of(5L), positions(response));
  }

  @Test
  void theCursorBlockIsUnsetAtZeroAndWhereNoBlockIs() {
    assertFalse(query(QueryRequest.newBuilder().setCursor(0)).hasCursorBlock());
    QueryResponse beyond = query(QueryRequest.newBuilder().setCursor(9));
    assertFalse(beyond.hasCursorBlock());
    assertEquals(5, beyond.getMaxPosition());
    assertTrue(beyond.getBlocksList().isEmpty());
  }

  @Test
  void limitCutsThePageAndSaysThereIsMore() {
    QueryResponse first = query(QueryRequest.newBuilder().setLimit(2));
    QueryResponse rest = query(QueryRequest.newBuilder().setLimit(3).setCursor(2));

    assertEquals(List.of(1L, 2L), positions(first));
    assertTrue(first.getHasMore());
    assertEquals(List.of(3L, 4L, 5L), positions(rest));
    assertFalse(rest.getHasMore());
  }

  @Test
  void limitZeroMeansOneHundred() {
    FeedId big = TestBlocks.feedId();
    t.blocking().append(Wire.append("s", Wire.blocks(big, "a", 0, 150)));

    QueryResponse response = query(QueryRequest.newBuilder());

    assertEquals(100, response.getBlocksCount());
    assertTrue(response.getHasMore());
  }

  @Test
  void aPageStopsAtTheResponseByteBudgetButAlwaysCarriesOneBlock() {
    t.close();
    t = TestServer.on(dir.resolve("feeds.db")).settings(ServerSettings.newBuilder().set(RESPONSE_BYTES, 3000).build())
        .start();
    FeedId big = TestBlocks.feedId();
    ByteString kib = ByteString.copyFrom(new byte[1024]);
    ByteString huge = ByteString.copyFrom(new byte[10_000]);
    List<Block> blocks = new ArrayList<>();
    blocks.add(Wire.block(big, "a", 0).toBuilder().setData(huge).build());
    for (int i = 1; i <= 5; i++) {
      blocks.add(Wire.block(big, "a", i).toBuilder().setData(kib).build());
    }
    t.blocking().append(Wire.append("s", blocks));

    QueryResponse first = query(QueryRequest.newBuilder().setCursor(5).setLimit(10));
    QueryResponse second = query(QueryRequest.newBuilder().setCursor(6).setLimit(10));

    assertEquals(List.of(6L), positions(first), "one block larger than the budget still comes");
    assertTrue(first.getHasMore());
    assertEquals(List.of(7L, 8L), positions(second));
    assertTrue(second.getHasMore());
  }

  @Test
  void anotherStoresTokenReadsFromTheStart() {
    String token = query(QueryRequest.newBuilder()).getServerToken();

    QueryResponse same = query(QueryRequest.newBuilder().setCursor(4).setExpectedServerToken(token));
    QueryResponse other = query(QueryRequest.newBuilder().setCursor(4).setExpectedServerToken("another-store"));

    assertEquals(List.of(5L), positions(same));
    assertTrue(same.hasCursorBlock());
    assertEquals(List.of(1L, 2L, 3L, 4L, 5L), positions(other));
    assertFalse(other.hasCursorBlock());
    assertEquals(token, other.getServerToken());
  }

  @Test
  void twoScopesAtOnceAreInvalidNamingThem() {
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
        () -> query(QueryRequest.newBuilder().addFeedIds(data.value()).setNamespace("data")));

    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
    assertTrue(e.getStatus().getDescription().contains("feed_ids and namespace"), e.getStatus().getDescription());
  }

  @Test
  void aNegativeCursorOrLimitIsInvalidAndALimitAboveTheMaximumIsALimit() {
    StatusRuntimeException cursor = assertThrows(StatusRuntimeException.class,
        () -> query(QueryRequest.newBuilder().setCursor(-1)));
    StatusRuntimeException negative = assertThrows(StatusRuntimeException.class,
        () -> query(QueryRequest.newBuilder().setLimit(-5)));
    StatusRuntimeException above = assertThrows(StatusRuntimeException.class,
        () -> query(QueryRequest.newBuilder().setLimit(1001)));

    assertEquals(Status.Code.INVALID_ARGUMENT, cursor.getStatus().getCode());
    assertTrue(cursor.getStatus().getDescription().startsWith("cursor must be >= 0"));
    assertEquals(Status.Code.INVALID_ARGUMENT, negative.getStatus().getCode());
    assertTrue(negative.getStatus().getDescription().startsWith("limit must be >= 0"));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, above.getStatus().getCode());
    assertTrue(above.getStatus().getDescription().startsWith("query-limit limit is 1000"),
        above.getStatus().getDescription());
  }

  @Test
  void aQueryOfAnEmptySpaceAnswersWithItsToken() {
    QueryResponse response = t.blocking().query(QueryRequest.newBuilder().setSpaceId("empty").build());

    assertEquals(0, response.getMaxPosition());
    assertFalse(response.getServerToken().isEmpty());
    assertTrue(response.getBlocksList().isEmpty());
  }

  @Test
  void listFeedsNamesFeedsWithNamespaceCountAndLastPosition() {
    ListFeedsResponse all = t.blocking().listFeeds(ListFeedsRequest.newBuilder().setSpaceId("s").setRequestId("l").build());
    ListFeedsResponse onlyData = t.blocking().listFeeds(
        ListFeedsRequest.newBuilder().setSpaceId("s").setNamespace("data").build());

    assertEquals("l", all.getRequestId());
    assertEquals(3, all.getFeedsCount());
    assertEquals(5, all.getMaxPosition());
    assertFalse(all.getServerToken().isEmpty());
    assertEquals(1, onlyData.getFeedsCount());
    assertEquals(data.value(), onlyData.getFeeds(0).getFeedId());
    assertEquals("data", onlyData.getFeeds(0).getNamespace());
    assertEquals(3, onlyData.getFeeds(0).getBlockCount());
    assertEquals(5, onlyData.getFeeds(0).getLastPosition());
    assertFalse(all.getFeedsList().stream().filter(f -> f.getFeedId().equals(plain.value())).findFirst()
        .orElseThrow().hasNamespace());
  }

  static List<Long> positions(QueryResponse response) {
    return response.getBlocksList().stream().map(Block::getPosition).toList();
  }
}
