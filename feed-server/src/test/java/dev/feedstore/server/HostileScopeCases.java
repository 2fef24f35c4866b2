package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.SUBSCRIPTION_MAX_TTL_MS;
import static io.grpc.Status.Code.INVALID_ARGUMENT;
import static io.grpc.Status.Code.NOT_FOUND;
import static io.grpc.Status.Code.RESOURCE_EXHAUSTED;

import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.SubscribeRequest;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.BadText;
import dev.feedstore.server.testing.HostileCase;
import java.util.ArrayList;
import java.util.List;

/**
 * The reads and their scopes: Query and Watch (each case runs against both) with bad feed ids,
 * scope combinations, unknown, expired and foreign subscriptions, cursors and limits; Subscribe
 * with bad lists, no scope, too large a scope and bad TTLs.
 *
 * @param expired a subscription of space {@code s} that has expired
 * @param foreign a live subscription of another space
 */
record HostileScopeCases(HostileRequests requests, String expired, String foreign) {
  private static final String ONE_SCOPE = "scope must be given by at most one of feed_ids, subscription_id and namespace";

  List<HostileCase> all() {
    List<HostileCase> cases = new ArrayList<>();
    for (BadText bad : BadText.concat(BadText.lengths(), BadText.notIdentifiers())) {
      requests.addReads(cases, "feed_ids[1] " + bad.label(), q -> q.addFeedIds(requests.feed.value()).addFeedIds(bad.value()),
          INVALID_ARGUMENT, "feed_ids[1] must be a ULID");
    }
    requests.addReads(cases, "feed_ids and namespace", q -> q.addFeedIds(requests.feed.value()).setNamespace("n"),
        INVALID_ARGUMENT, ONE_SCOPE, "was 'feed_ids and namespace'");
    requests.addReads(cases, "feed_ids and subscription_id", q -> q.addFeedIds(requests.feed.value()).setSubscriptionId(foreign),
        INVALID_ARGUMENT, ONE_SCOPE, "was 'feed_ids and subscription_id'");
    requests.addReads(cases, "subscription_id and namespace", q -> q.setSubscriptionId(foreign).setNamespace("n"),
        INVALID_ARGUMENT, ONE_SCOPE, "was 'subscription_id and namespace'");
    requests.addReads(cases, "all three scopes", q -> q.addFeedIds(requests.feed.value()).setSubscriptionId(foreign).setNamespace("n"),
        INVALID_ARGUMENT, ONE_SCOPE, "was 'feed_ids and subscription_id and namespace'");
    for (BadText bad : List.of(BadText.EMPTY, new BadText("129 chars", "s".repeat(129)), BadText.LONG)) {
      requests.addReads(cases, "subscription_id " + bad.label(), q -> q.setSubscriptionId(bad.value()), INVALID_ARGUMENT,
          "subscription_id must be 1-128 characters (an id returned by Subscribe)");
    }
    for (BadText bad : BadText.concat(List.of(new BadText("unknown", "AAAAAAAAAAAAAAAAAAAAAA")), BadText.notIdentifiers())) {
      requests.addReads(cases, "subscription_id " + bad.label(), q -> q.setSubscriptionId(bad.value()), NOT_FOUND,
          "is not known in space s; subscribe again");
    }
    requests.addReads(cases, "an expired subscription", q -> q.setSubscriptionId(expired), NOT_FOUND,
        "subscription '" + expired + "' expired at", "subscribe again");
    requests.addReads(cases, "another space's subscription", q -> q.setSubscriptionId(foreign), NOT_FOUND,
        "subscription '" + foreign + "' is not known in space s; subscribe again");
    for (long cursor : new long[] {-1, Long.MIN_VALUE}) {
      requests.addReads(cases, "cursor " + cursor, q -> q.setCursor(cursor), INVALID_ARGUMENT,
          "cursor must be >= 0 (0 reads from the start), was " + cursor);
    }
    for (int count : new int[] {1001, 40_000}) {
      requests.addReads(cases, count + " feed_ids", q -> q.addAllFeedIds(feedIds(count)), RESOURCE_EXHAUSTED,
          "feeds-per-scope limit is 1000, feed_ids has " + count);
    }
    for (int limit : new int[] {-1, Integer.MIN_VALUE}) {
      cases.add(HostileCase.of("Query: limit " + limit, HostileRequests.query(requests.query().toBuilder().setLimit(limit).build()),
          INVALID_ARGUMENT, "limit must be >= 0 (0 means the default of 100), was " + limit));
    }
    for (int limit : new int[] {1001, Integer.MAX_VALUE}) {
      cases.add(HostileCase.of("Query: limit " + limit, HostileRequests.query(requests.query().toBuilder().setLimit(limit).build()),
          RESOURCE_EXHAUSTED, "query-limit limit is 1000, limit of the query has " + limit));
    }
    subscribe(cases);
    return cases;
  }

  private void subscribe(List<HostileCase> cases) {
    for (BadText bad : BadText.concat(BadText.lengths(), BadText.notIdentifiers())) {
      requests.addSubscribe(cases, "feed_ids[1] " + bad.label(), s -> s.addFeedIds(requests.feed.value()).addFeedIds(bad.value()),
          INVALID_ARGUMENT, "feed_ids[1] must be a ULID");
      requests.addSubscribe(cases, "namespaces[1] " + bad.label(), s -> s.addNamespaces(bad.value()), INVALID_ARGUMENT,
          "namespaces[1] must be 1-128 characters");
    }
    requests.addSubscribe(cases, "no scope", SubscribeRequest.Builder::clearNamespaces, INVALID_ARGUMENT,
        "feed_ids and namespaces must name at least one feed or namespace between them");
    for (long ttl : new long[] {0, -1, Long.MIN_VALUE}) {
      requests.addSubscribe(cases, "ttl_ms " + ttl, s -> s.setTtlMs(ttl), INVALID_ARGUMENT, "ttl_ms must be > 0", "was " + ttl);
    }
    for (long ttl : new long[] {SUBSCRIPTION_MAX_TTL_MS.defaultValue() + 1, Long.MAX_VALUE}) {
      requests.addSubscribe(cases, "ttl_ms " + ttl, s -> s.setTtlMs(ttl), RESOURCE_EXHAUSTED,
          "subscription-max-ttl-ms limit is 86400000, ttl_ms has " + ttl);
    }
    requests.addSubscribe(cases, "1,001 feed_ids and namespaces", s -> s.addAllFeedIds(feedIds(600)).addAllNamespaces(namespaces(400)),
        RESOURCE_EXHAUSTED, "feeds-per-scope limit is 1000, feed_ids and namespaces has 1001");
    requests.addSubscribe(cases, "500,000 feed_ids", s -> s.addAllFeedIds(feedIds(500_000)), RESOURCE_EXHAUSTED,
        "feeds-per-scope limit is 1000, feed_ids and namespaces has 500001");
  }

  private static List<String> feedIds(int count) {
    List<String> ids = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      ids.add(TestBlocks.feedId().value());
    }
    return ids;
  }

  private static List<String> namespaces(int count) {
    List<String> names = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      names.add("ns-" + i);
    }
    return names;
  }
}
