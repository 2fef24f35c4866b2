package dev.feedstore.server;

import static dev.feedstore.server.testing.NamespacedFeeds.SPACE;
import static dev.feedstore.server.testing.NamespacedFeeds.assertRefused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.AckRequest;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.CompactRequest;
import dev.feedstore.proto.v1.FeedInfo;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.ListFeedsRequest;
import dev.feedstore.proto.v1.ListSubscriptionsRequest;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import dev.feedstore.proto.v1.SubscribeRequest;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.settings.AccessTokens;
import dev.feedstore.server.testing.Calls;
import dev.feedstore.server.testing.EventRecorder;
import dev.feedstore.server.testing.NamespacedFeeds;
import dev.feedstore.server.testing.TestServer;
import io.grpc.Status;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Grants per namespace from the tokens file, over gRPC on loopback and a real SQLite file: every
 * read's scope is checked whole against the namespaces its feeds were stored with (refused, never
 * narrowed), every append against the stored namespace of each of its feeds, and the whole space
 * needs a space-wide grant.
 */
class NamespaceGrantsTest {
  @TempDir Path dir;
  TestServer t;
  NamespacedFeeds feeds;

  @BeforeEach
  void start() throws Exception {
    Path tokens = dir.resolve("tokens");
    Files.writeString(tokens, "# a token may be listed on several lines: its grants add up\n"
        + AccessTokens.sha256("chat-reader") + " read team namespaces=chat\n"
        + AccessTokens.sha256("chat-writer") + " write team namespaces=chat\n"
        + AccessTokens.sha256("chat-writer") + " read team namespaces=notes\n"
        + AccessTokens.sha256("owner") + " admin team\n");
    t = TestServer.on(dir.resolve("feeds.db")).accessTokens(AccessTokens.read(tokens)).loopback().start();
    feeds = NamespacedFeeds.append(t.blocking("owner"));
  }

  @AfterEach
  void stop() {
    t.close();
  }

  @Test
  void aQueryOfAGrantedNamespaceOrOfItsFeedsIsAnsweredWithTheSpaceWidePositions() {
    QueryResponse byNamespace = query("chat-reader", QueryRequest.newBuilder().setNamespace("chat"));
    QueryResponse byFeed = query("chat-reader", QueryRequest.newBuilder().addFeedIds(feeds.chat().value()));

    assertEquals(List.of(1L, 2L), positions(byNamespace.getBlocksList()));
    assertEquals(List.of(1L, 2L), positions(byFeed.getBlocksList()));
    assertEquals(6, byNamespace.getMaxPosition(), "positions stay space-wide");
  }

  @Test
  void aQueryReachingBeyondTheGrantsIsRefusedNamingTheNamespaceOrFeed() {
    assertRefused(Status.Code.PERMISSION_DENIED, "may not read namespace 'notes' of space 'team'; the token may"
        + " read only namespace 'chat' there",
        () -> query("chat-reader", QueryRequest.newBuilder().setNamespace("notes")));
    assertRefused(Status.Code.PERMISSION_DENIED, "may not read namespace 'notes' of space 'team' (feed "
        + feeds.notes().value() + ")",
        () -> query("chat-reader", QueryRequest.newBuilder().addFeedIds(feeds.chat().value())
            .addFeedIds(feeds.notes().value())));
    assertRefused(Status.Code.PERMISSION_DENIED, "Query reads the whole space (it names no feeds, namespace or"
        + " subscription), which needs a space-wide read grant of space 'team'",
        () -> query("chat-reader", QueryRequest.newBuilder()));
    assertRefused(Status.Code.PERMISSION_DENIED, "may not use space 'other'",
        () -> t.blocking("chat-reader").query(QueryRequest.newBuilder().setSpaceId("other").setNamespace("chat").build()));
  }

  @Test
  void feedsWithoutANamespaceOrNotCreatedYetNeedASpaceWideGrant() {
    FeedId later = TestBlocks.feedId();

    assertRefused(Status.Code.PERMISSION_DENIED, "feed " + feeds.plain().value() + " of space 'team' has no"
        + " namespace, so reading it needs a space-wide read grant",
        () -> query("chat-writer", QueryRequest.newBuilder().addFeedIds(feeds.plain().value())));
    assertRefused(Status.Code.PERMISSION_DENIED, "feed " + later.value() + " is not in space 'team' yet",
        () -> query("chat-writer", QueryRequest.newBuilder().addFeedIds(later.value())));

    assertEquals(List.of(5L, 6L), positions(query("owner", QueryRequest.newBuilder()
        .addFeedIds(feeds.plain().value())).getBlocksList()));
    assertEquals(0, query("owner", QueryRequest.newBuilder().addFeedIds(later.value())).getBlocksCount());
  }

  @Test
  void aWatchOfAGrantedNamespaceFollowsItAndOneReachingBeyondEndsAtOnce() {
    EventRecorder<WatchEvent> chat = new EventRecorder<>();
    FeedSyncGrpc.newStub(t.channel("chat-reader")).watch(watch().setNamespace("chat").build(), chat);
    assertEquals(List.of(1L, 2L), positions(chat.next(Duration.ofSeconds(20)).getBlocks().getBlocksList()));
    assertTrue(chat.next(Duration.ofSeconds(20)).hasCaughtUp());
    t.blocking("owner").append(NamespacedFeeds.append(Optional.empty(), feeds.notes(), 2, 1));
    t.blocking("owner").append(NamespacedFeeds.append(Optional.empty(), feeds.chat(), 2, 1));
    assertEquals(List.of(8L), positions(chat.next(Duration.ofSeconds(20)).getBlocks().getBlocksList()),
        "the block of notes at 7 is not in the scope");

    for (WatchRequest.Builder beyond : List.of(watch().setNamespace("notes"), watch(),
        watch().addFeedIds(feeds.plain().value()))) {
      EventRecorder<WatchEvent> refused = new EventRecorder<>();
      FeedSyncGrpc.newStub(t.channel("chat-reader")).watch(beyond.build(), refused);
      assertEquals(Status.Code.PERMISSION_DENIED, refused.awaitEnd().getCode(), beyond.toString());
      assertEquals(0, refused.pending(), "nothing was sent before the refusal");
    }
  }

  @Test
  void aSubscriptionIsCheckedWhenMadeAndEachTimeItIsUsed() {
    String chatOnly = t.blocking("chat-reader").subscribe(SubscribeRequest.newBuilder().setSpaceId(SPACE)
        .addNamespaces("chat").build()).getSubscriptionId();
    assertEquals(2, query("chat-reader", QueryRequest.newBuilder().setSubscriptionId(chatOnly)).getBlocksCount());

    assertRefused(Status.Code.PERMISSION_DENIED, "may not read namespace 'notes' of space 'team'",
        () -> t.blocking("chat-reader").subscribe(SubscribeRequest.newBuilder().setSpaceId(SPACE)
            .addNamespaces("chat").addNamespaces("notes").build()));
    assertRefused(Status.Code.PERMISSION_DENIED, "feed " + feeds.plain().value() + " of space 'team' has no namespace",
        () -> t.blocking("chat-reader").subscribe(SubscribeRequest.newBuilder().setSpaceId(SPACE)
            .addNamespaces("chat").addFeedIds(feeds.plain().value()).build()));

    // A subscription another caller made, wider than this caller's grants: its id grants nothing.
    String wide = t.blocking("owner").subscribe(SubscribeRequest.newBuilder().setSpaceId(SPACE).addNamespaces("chat")
        .addNamespaces("notes").setDurable(true).setName("worker").build()).getSubscriptionId();
    assertRefused(Status.Code.PERMISSION_DENIED, "may not read namespace 'notes'",
        () -> query("chat-reader", QueryRequest.newBuilder().setSubscriptionId(wide)));
    assertRefused(Status.Code.PERMISSION_DENIED, "may not read namespace 'notes'",
        () -> query("chat-reader", QueryRequest.newBuilder().setSubscriptionId(wide).setFromAck(true)));
    assertRefused(Status.Code.PERMISSION_DENIED, "may not read namespace 'notes'",
        () -> Calls.firstWatchEvent(t.channel("chat-reader"), watch().setSubscriptionId(wide).build()));
    assertRefused(Status.Code.PERMISSION_DENIED, "may not read namespace 'notes'",
        () -> t.blocking("chat-reader").ack(AckRequest.newBuilder().setSpaceId(SPACE).setSubscriptionId(wide)
            .setUpTo(4).build()));
    assertEquals(0, t.blocking("chat-reader").listSubscriptions(ListSubscriptionsRequest.newBuilder()
        .setSpaceId(SPACE).build()).getSubscriptions(0).getAcked(),
        "the refused acknowledgement moved nothing; any grant of the space lists its durable subscriptions");
    assertEquals(4, t.blocking("chat-writer").ack(AckRequest.newBuilder().setSpaceId(SPACE).setSubscriptionId(wide)
        .setUpTo(4).build()).getAcked(), "a caller that may read both namespaces uses it");
  }

  @Test
  void listFeedsListsAGrantedNamespaceAndRefusesTheWholeSpace() {
    List<FeedInfo> chat = t.blocking("chat-reader").listFeeds(ListFeedsRequest.newBuilder().setSpaceId(SPACE)
        .setNamespace("chat").build()).getFeedsList();
    assertEquals(List.of(feeds.chat().value()), chat.stream().map(FeedInfo::getFeedId).toList());

    assertRefused(Status.Code.PERMISSION_DENIED, "ListFeeds lists every feed of the space (it names no namespace),"
        + " which needs a space-wide read grant of space 'team'; the token may read only namespace 'chat' there",
        () -> t.blocking("chat-reader").listFeeds(ListFeedsRequest.newBuilder().setSpaceId(SPACE).build()));
    assertRefused(Status.Code.PERMISSION_DENIED, "may not read namespace 'notes'",
        () -> t.blocking("chat-reader").listFeeds(ListFeedsRequest.newBuilder().setSpaceId(SPACE)
            .setNamespace("notes").build()));
    assertEquals(3, t.blocking("owner").listFeeds(ListFeedsRequest.newBuilder().setSpaceId(SPACE).build())
        .getFeedsCount());
  }

  @Test
  void anAppendCommitsToFeedsOfANamespaceTheCallerMayWriteAndNowhereElse() {
    FeedSyncGrpc.FeedSyncBlockingStub writer = t.blocking("chat-writer");
    assertEquals(List.of(7L), writer.append(NamespacedFeeds.append(Optional.empty(), feeds.chat(), 2, 1))
        .getPositionsList());
    FeedId created = TestBlocks.feedId();
    assertEquals(List.of(8L), writer.append(NamespacedFeeds.append(Optional.of("chat"), created, 0, 1))
        .getPositionsList(), "a feed it creates takes the request's namespace");

    assertRefused(Status.Code.PERMISSION_DENIED, "may read namespace 'notes' of space 'team' but not Append to it"
        + " (feed " + feeds.notes().value() + ")",
        () -> writer.append(NamespacedFeeds.append(Optional.empty(), feeds.notes(), 2, 1)));
    assertRefused(Status.Code.PERMISSION_DENIED, "may read namespace 'notes' of space 'team' but not Append to it",
        () -> writer.append(NamespacedFeeds.append(Optional.of("chat"), feeds.notes(), 2, 1)));
    assertRefused(Status.Code.PERMISSION_DENIED, "feed " + feeds.plain().value() + " of space 'team' has no"
        + " namespace, so Append to it needs a space-wide write grant",
        () -> writer.append(NamespacedFeeds.append(Optional.of("chat"), feeds.plain(), 2, 1)));
    FeedId elsewhere = TestBlocks.feedId();
    assertRefused(Status.Code.PERMISSION_DENIED, "may read namespace 'notes' of space 'team' but not Append to it",
        () -> writer.append(NamespacedFeeds.append(Optional.of("notes"), elsewhere, 0, 1)));
    assertRefused(Status.Code.PERMISSION_DENIED, "feed " + elsewhere.value() + " of space 'team' has no namespace",
        () -> writer.append(NamespacedFeeds.append(Optional.empty(), elsewhere, 0, 1)));
    assertRefused(Status.Code.PERMISSION_DENIED, "may read space 'team' but not Append to it",
        () -> t.blocking("chat-reader").append(NamespacedFeeds.append(Optional.empty(), feeds.chat(), 2, 1)));

    QueryResponse all = query("owner", QueryRequest.newBuilder());
    assertEquals(8, all.getMaxPosition(), "the refused appends wrote nothing");
    assertEquals("chat", feed(created).orElseThrow().getNamespace());
    assertEquals("notes", feed(feeds.notes()).orElseThrow().getNamespace(), "an Append cannot move a feed");
    assertEquals(Optional.empty(), feed(elsewhere), "the refused appends created no feed");
  }

  @Test
  void compactStaysSpaceWideAndNeedsAnAdminGrant() {
    CompactRequest compact = CompactRequest.newBuilder().setSpaceId(SPACE).setUpTo(2).build();

    assertRefused(Status.Code.PERMISSION_DENIED, "needs an admin grant", () -> t.blocking("chat-writer").compact(compact));
    assertEquals(2, t.blocking("owner").compact(compact).getFloor());
  }

  private QueryResponse query(String token, QueryRequest.Builder request) {
    return t.blocking(token).query(request.setSpaceId(SPACE).build());
  }

  private static WatchRequest.Builder watch() {
    return WatchRequest.newBuilder().setSpaceId(SPACE);
  }

  /** The feed as ListFeeds lists it to a caller that may read the whole space. */
  private Optional<FeedInfo> feed(FeedId feed) {
    return t.blocking("owner").listFeeds(ListFeedsRequest.newBuilder().setSpaceId(SPACE).build()).getFeedsList()
        .stream().filter(info -> info.getFeedId().equals(feed.value())).findFirst();
  }

  private static List<Long> positions(List<Block> blocks) {
    return blocks.stream().map(Block::getPosition).toList();
  }
}
