package dev.feedstore.server.internal.http;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.FeedInfo;
import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.Subscription;
import dev.feedstore.proto.v1.AckRequest;
import dev.feedstore.proto.v1.CompactRequest;
import dev.feedstore.proto.v1.SetRetentionRequest;
import dev.feedstore.proto.v1.SubscribeRequest;
import dev.feedstore.server.internal.access.Caller;
import dev.feedstore.server.internal.authority.CompactResult;
import dev.feedstore.server.internal.authority.DurableList;
import dev.feedstore.server.internal.authority.FeedList;
import dev.feedstore.server.internal.authority.RetentionResult;
import dev.feedstore.server.internal.authority.SubscribeResult;
import dev.feedstore.server.internal.core.ApiCalls;
import dev.feedstore.server.internal.core.ServerCore;
import dev.feedstore.server.internal.wire.WireRequests;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The endpoints of the HTTP API that mirror {@link ApiCalls}: each reads its request (a JSON body,
 * the JSON of the {@code feed.v1} request without what the path gives, or query parameters),
 * checks it with the wire's rules ({@link WireRequests}), runs the call, and answers its response
 * as JSON with the wire's field names. Thread-safe.
 *
 * <ul>
 *   <li>{@code POST /v1/spaces/{space}/subscriptions} {@code {"feed_ids": [...], "namespaces":
 *       [...], "ttl_ms": N}} or, durable, {@code {..., "durable": true, "name": "indexer",
 *       "ack_within_ms": N}}: {@code {"subscription_id", "expires_at", "acked", "created",
 *       "server_token"}}
 *   <li>{@code POST /v1/spaces/{space}/subscriptions/{subscription}/ack} {@code {"up_to": N}}:
 *       {@code {"acked", "expires_at", "server_token"}}
 *   <li>{@code GET /v1/spaces/{space}/subscriptions}: {@code {"subscriptions": [{"subscription_id",
 *       "name", "acked", "lag", "expires_at", "expired"}], "max_position", "server_token"}}
 *   <li>{@code GET /v1/spaces/{space}/feeds?namespace=N&after=FEED&limit=L}: {@code {"feeds":
 *       [{"feed_id", "namespace", "block_count", "last_position"}], "has_more", "next",
 *       "max_position", "server_token"}}, {@code next} (the {@code after} of the next page) when
 *       more follow
 *   <li>{@code POST /v1/spaces/{space}/compact} {@code {"up_to": N}}: {@code {"floor", "removed",
 *       "server_token"}}
 *   <li>{@code PUT /v1/spaces/{space}/retention} {@code {"blocks": N, "age_ms": N, "bytes": N}} or
 *       {@code {"server_default": true}}: {@code {"blocks", "age_ms", "bytes", "server_default",
 *       "floor", "server_token"}}
 *   <li>{@code GET /v1/server}: {@code {"version", "max_message_bytes", "blocks_per_append",
 *       "block_bytes", "query_limit", "max_response_bytes"}}
 * </ul>
 */
final class HttpCalls {
  private static final Set<String> FEED_PAGE = Set.of("namespace", "after", "limit");
  private static final String UP_TO = "{\"up_to\": N}";

  private final ServerCore core;
  private final ApiCalls calls;

  HttpCalls(ServerCore core) {
    this.core = core;
    this.calls = core.calls();
  }

  void subscribe(HttpExchange exchange, Caller caller, Map<String, String> path) {
    JsonBody.read(exchange, core, body -> {
      SubscribeRequest.Builder request = JsonBody.parse(body, SubscribeRequest.newBuilder(), "of a subscription:"
          + " {\"feed_ids\": [...], \"namespaces\": [...], \"ttl_ms\": N} or {\"feed_ids\": [...], \"namespaces\":"
          + " [...], \"durable\": true, \"name\": NAME, \"ack_within_ms\": N}");
      SubscribeResult result = calls.subscribe(caller,
          WireRequests.subscribe(request.setSpaceId(space(exchange, request.getSpaceId())).build(), core.settings()));
      Subscription subscription = result.subscription();
      exchange.json(200, Json.object()
          .field("subscription_id", subscription.id())
          .field("expires_at", subscription.expiresAtMillis())
          .field("acked", subscription.durable().map(Subscription.Durable::acked).orElse(0L))
          .field("created", result.created())
          .field("server_token", result.token().value())
          .end());
    });
  }

  void ack(HttpExchange exchange, Caller caller, Map<String, String> path) {
    String subscriptionId = named("subscription", () -> WireRequests.subscriptionId(path.get("subscription")));
    JsonBody.read(exchange, core, body -> {
      AckRequest.Builder request = JsonBody.parse(body, AckRequest.newBuilder(), "of an acknowledgement: " + UP_TO);
      JsonBody.samePath("subscription_id", request.getSubscriptionId(), subscriptionId, "subscription");
      SubscribeResult result = calls.ack(caller, spaceId(exchange, request.getSpaceId()), subscriptionId,
          request.getUpTo());
      exchange.json(200, Json.object()
          .field("acked", result.subscription().durable().orElseThrow().acked())
          .field("expires_at", result.subscription().expiresAtMillis())
          .field("server_token", result.token().value())
          .end());
    });
  }

  void subscriptions(HttpExchange exchange, Caller caller, Map<String, String> path) {
    HttpParams.of(exchange.request(), Set.of());
    DurableList list = calls.subscriptions(caller, spaceId(exchange, ""));
    List<String> subscriptions = new ArrayList<>();
    for (Subscription subscription : list.subscriptions()) {
      Subscription.Durable durable = subscription.durable().orElseThrow();
      Json json = Json.object().field("subscription_id", subscription.id());
      durable.name().ifPresent(name -> json.field("name", name));
      subscriptions.add(json.field("acked", durable.acked())
          .field("lag", Math.max(0, list.maxPosition() - durable.acked()))
          .field("expires_at", subscription.expiresAtMillis())
          .field("expired", subscription.isExpiredAt(list.nowMillis()))
          .end());
    }
    exchange.json(200, Json.object()
        .raw("subscriptions", Json.array(subscriptions))
        .field("max_position", list.maxPosition())
        .field("server_token", list.token().value())
        .end());
  }

  void feeds(HttpExchange exchange, Caller caller, Map<String, String> path) {
    HttpParams params = HttpParams.of(exchange.request(), FEED_PAGE);
    Optional<Namespace> namespace = params.one("namespace").map(ns -> named("namespace", () -> new Namespace(ns)));
    Optional<FeedId> after = params.one("after").map(feed -> named("after", () -> new FeedId(feed)));
    OptionalLong limit = params.count("limit");
    int size = WireRequests.listLimit((int) Math.min(Integer.MAX_VALUE, limit.orElse(0)), core.settings());
    FeedList list = calls.feeds(caller, spaceId(exchange, ""), namespace, after, size);
    List<String> feeds = new ArrayList<>();
    for (FeedInfo feed : list.feeds()) {
      Json json = Json.object().field("feed_id", feed.feedId().value());
      feed.namespace().ifPresent(ns -> json.field("namespace", ns.value()));
      feeds.add(json.field("block_count", feed.blockCount())
          .field("last_position", feed.lastPosition().value())
          .end());
    }
    Json json = Json.object().raw("feeds", Json.array(feeds)).field("has_more", list.hasMore());
    if (list.hasMore()) {
      json.field("next", list.feeds().get(list.feeds().size() - 1).feedId().value());
    }
    exchange.json(200, json.field("max_position", list.maxPosition().value())
        .field("server_token", list.token().value())
        .end());
  }

  void compact(HttpExchange exchange, Caller caller, Map<String, String> path) {
    JsonBody.read(exchange, core, body -> {
      CompactRequest request = JsonBody.parse(body, CompactRequest.newBuilder(), "of a compaction: " + UP_TO).build();
      CompactResult result = calls.compact(caller, spaceId(exchange, request.getSpaceId()),
          WireRequests.upTo(request.getUpTo()));
      exchange.json(200, Json.object()
          .field("floor", result.floor().value())
          .field("removed", result.removed())
          .field("server_token", result.token().value())
          .end());
    });
  }

  void setRetention(HttpExchange exchange, Caller caller, Map<String, String> path) {
    JsonBody.read(exchange, core, body -> {
      SetRetentionRequest request = JsonBody.parse(body, SetRetentionRequest.newBuilder(), "of a retention:"
          + " {\"blocks\": N, \"age_ms\": N, \"bytes\": N} or {\"server_default\": true}").build();
      RetentionResult result = calls.setRetention(caller, spaceId(exchange, request.getSpaceId()),
          WireRequests.retention(request));
      exchange.json(200, Json.object()
          .field("blocks", result.retention().blocks().orElse(0))
          .field("age_ms", result.retention().ageMillis().orElse(0))
          .field("bytes", result.retention().bytes().orElse(0))
          .field("server_default", result.serverDefault())
          .field("floor", result.floor().value())
          .field("server_token", result.token().value())
          .end());
    });
  }

  void serverInfo(HttpExchange exchange, Caller caller, Map<String, String> path) {
    HttpParams.of(exchange.request(), Set.of());
    ApiCalls.ServerInfo info = calls.serverInfo(caller);
    exchange.json(200, Json.object()
        .field("version", info.version())
        .field("max_message_bytes", info.maxMessageBytes())
        .field("blocks_per_append", info.blocksPerAppend())
        .field("block_bytes", info.blockBytes())
        .field("query_limit", info.queryLimit())
        .field("max_response_bytes", info.maxResponseBytes())
        .end());
  }

  /** The path's space, which the body's {@code space_id} may repeat. */
  private static String space(HttpExchange exchange, String inBody) {
    JsonBody.samePath("space_id", inBody, exchange.space(), "space");
    return exchange.space();
  }

  private static SpaceId spaceId(HttpExchange exchange, String inBody) {
    return named("space", () -> new SpaceId(space(exchange, inBody)));
  }

  /** Makes a value, naming the HTTP parameter or path segment {@code name} in its refusal. */
  private static <T> T named(String name, Supplier<T> make) {
    try {
      return make.get();
    } catch (InvalidValueException e) {
      throw e.withField(name);
    }
  }
}
