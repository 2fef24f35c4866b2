package dev.feedstore.server;

import dev.feedstore.core.FeedId;
import dev.feedstore.proto.v1.AckRequest;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.CompactRequest;
import dev.feedstore.proto.v1.SetRetentionRequest;
import dev.feedstore.proto.v1.ListFeedsRequest;
import dev.feedstore.proto.v1.ListSubscriptionsRequest;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.SubscribeRequest;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.testing.Calls;
import dev.feedstore.server.testing.HostileCase;
import dev.feedstore.server.testing.Wire;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Well-formed requests of every RPC against space {@code s}, which the hostile cases break one
 * field at a time, and the calls that send them. A Watch is built from a Query request (same scope
 * and cursor fields), so that every scope case runs against both.
 */
final class HostileRequests {
  static final String SPACE = "s";
  /** A sequence no test stores, so that a good block in a rejected request would be new. */
  static final long UNUSED_SEQUENCE = 1_000_000;

  final FeedId feed;

  HostileRequests(FeedId feed) {
    this.feed = feed;
  }

  dev.feedstore.proto.v1.Block block() {
    return Wire.block(feed, "a", UNUSED_SEQUENCE);
  }

  AppendRequest append() {
    return Wire.append(SPACE, block(), Wire.block(feed, "a", UNUSED_SEQUENCE + 1));
  }

  QueryRequest query() {
    return QueryRequest.newBuilder().setRequestId("q").setSpaceId(SPACE).build();
  }

  SubscribeRequest subscribe() {
    return SubscribeRequest.newBuilder().setRequestId("sub").setSpaceId(SPACE).addNamespaces("n").build();
  }

  AckRequest ack(String subscriptionId) {
    return AckRequest.newBuilder().setRequestId("ack").setSpaceId(SPACE).setSubscriptionId(subscriptionId).build();
  }

  ListSubscriptionsRequest listSubscriptions() {
    return ListSubscriptionsRequest.newBuilder().setRequestId("ls").setSpaceId(SPACE).build();
  }

  ListFeedsRequest listFeeds() {
    return ListFeedsRequest.newBuilder().setRequestId("l").setSpaceId(SPACE).build();
  }

  CompactRequest compact() {
    return CompactRequest.newBuilder().setRequestId("c").setSpaceId(SPACE).setUpTo(1).build();
  }

  SetRetentionRequest setRetention() {
    return SetRetentionRequest.newBuilder().setRequestId("r").setSpaceId(SPACE).setBlocks(1).build();
  }

  static HostileCase.Call compact(CompactRequest request) {
    return channel -> Calls.blocking(channel).compact(request);
  }

  static HostileCase.Call setRetention(SetRetentionRequest request) {
    return channel -> Calls.blocking(channel).setRetention(request);
  }

  static HostileCase.Call append(AppendRequest request) {
    return channel -> Calls.blocking(channel).append(request);
  }

  static HostileCase.Call query(QueryRequest request) {
    return channel -> Calls.blocking(channel).query(request);
  }

  static HostileCase.Call subscribe(SubscribeRequest request) {
    return channel -> Calls.blocking(channel).subscribe(request);
  }

  static HostileCase.Call ack(AckRequest request) {
    return channel -> Calls.blocking(channel).ack(request);
  }

  static HostileCase.Call listSubscriptions(ListSubscriptionsRequest request) {
    return channel -> Calls.blocking(channel).listSubscriptions(request);
  }

  static HostileCase.Call listFeeds(ListFeedsRequest request) {
    return channel -> Calls.blocking(channel).listFeeds(request);
  }

  /** A Watch with the scope, cursor, token and ids of {@code query}. */
  static HostileCase.Call watch(QueryRequest query) {
    WatchRequest.Builder watch = WatchRequest.newBuilder()
        .setRequestId(query.getRequestId())
        .setSpaceId(query.getSpaceId())
        .addAllFeedIds(query.getFeedIdsList())
        .setCursor(query.getCursor());
    if (query.hasSubscriptionId()) {
      watch.setSubscriptionId(query.getSubscriptionId());
    }
    if (query.hasNamespace()) {
      watch.setNamespace(query.getNamespace());
    }
    if (query.hasExpectedServerToken()) {
      watch.setExpectedServerToken(query.getExpectedServerToken());
    }
    watch.setFromAck(query.getFromAck());
    if (query.hasStartTime()) {
      watch.setStartTime(query.getStartTime());
    }
    return channel -> Calls.firstWatchEvent(channel, watch.build());
  }

  /** Each RPC with one string field set through {@code set}: its name and its call. */
  record Rpc(String name, Function<String, HostileCase.Call> set) {}

  /** Every RPC, with {@code space_id} set to the value. */
  List<Rpc> withSpaceId() {
    return List.of(
        new Rpc("Append", v -> append(append().toBuilder().setSpaceId(v).build())),
        new Rpc("Query", v -> query(query().toBuilder().setSpaceId(v).build())),
        new Rpc("Watch", v -> watch(query().toBuilder().setSpaceId(v).build())),
        new Rpc("Subscribe", v -> subscribe(subscribe().toBuilder().setSpaceId(v).build())),
        new Rpc("Ack", v -> ack(ack("AAAAAAAAAAAAAAAAAAAAAA").toBuilder().setSpaceId(v).build())),
        new Rpc("ListSubscriptions", v -> listSubscriptions(listSubscriptions().toBuilder().setSpaceId(v).build())),
        new Rpc("ListFeeds", v -> listFeeds(listFeeds().toBuilder().setSpaceId(v).build())),
        new Rpc("Compact", v -> compact(compact().toBuilder().setSpaceId(v).build())),
        new Rpc("SetRetention", v -> setRetention(setRetention().toBuilder().setSpaceId(v).build())));
  }

  /** Every RPC, with {@code request_id} set to the value. */
  List<Rpc> withRequestId() {
    return List.of(
        new Rpc("Append", v -> append(append().toBuilder().setRequestId(v).build())),
        new Rpc("Query", v -> query(query().toBuilder().setRequestId(v).build())),
        new Rpc("Watch", v -> watch(query().toBuilder().setRequestId(v).build())),
        new Rpc("Subscribe", v -> subscribe(subscribe().toBuilder().setRequestId(v).build())),
        new Rpc("Ack", v -> ack(ack("AAAAAAAAAAAAAAAAAAAAAA").toBuilder().setRequestId(v).build())),
        new Rpc("ListSubscriptions", v -> listSubscriptions(listSubscriptions().toBuilder().setRequestId(v).build())),
        new Rpc("ListFeeds", v -> listFeeds(listFeeds().toBuilder().setRequestId(v).build())),
        new Rpc("Compact", v -> compact(compact().toBuilder().setRequestId(v).build())),
        new Rpc("SetRetention", v -> setRetention(setRetention().toBuilder().setRequestId(v).build())));
  }

  /** Every RPC that takes a namespace as such, with it set to the value. */
  List<Rpc> withNamespace() {
    return List.of(
        new Rpc("Append", v -> append(append().toBuilder().setNamespace(v).build())),
        new Rpc("Query", v -> query(query().toBuilder().setNamespace(v).build())),
        new Rpc("Watch", v -> watch(query().toBuilder().setNamespace(v).build())),
        new Rpc("ListFeeds", v -> listFeeds(listFeeds().toBuilder().setNamespace(v).build())));
  }

  /** Adds the Query and the Watch of {@code requests.query()} changed by {@code change}, answered with {@code code}. */
  void addReads(List<HostileCase> cases, String what, UnaryOperator<QueryRequest.Builder> change,
      io.grpc.Status.Code code, String... fragments) {
    QueryRequest request = change.apply(query().toBuilder()).build();
    cases.add(HostileCase.of("Query: " + what, query(request), code, fragments));
    cases.add(HostileCase.of("Watch: " + what, watch(request), code, fragments));
  }

  /** Adds the Subscribe of {@code subscribe()} changed by {@code change}, answered with {@code code}. */
  void addSubscribe(List<HostileCase> cases, String what,
      Function<SubscribeRequest.Builder, SubscribeRequest.Builder> change, io.grpc.Status.Code code,
      String... fragments) {
    cases.add(HostileCase.of("Subscribe: " + what, subscribe(change.apply(subscribe().toBuilder()).build()), code,
        fragments));
  }
}
