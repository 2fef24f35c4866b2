package dev.feedstore.server.internal.http;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.FeedInfo;
import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.Subscription;
import dev.feedstore.server.internal.access.Caller;
import dev.feedstore.server.internal.authority.CompactResult;
import dev.feedstore.server.internal.authority.DurableList;
import dev.feedstore.server.internal.authority.FeedList;
import dev.feedstore.server.internal.authority.RetentionResult;
import dev.feedstore.server.internal.authority.SubscribeResult;
import dev.feedstore.server.internal.core.ApiCalls;
import dev.feedstore.server.internal.core.ServerCore;
import dev.feedstore.server.internal.http.JsonBody.Kind;
import dev.feedstore.server.internal.requests.Requests;
import dev.feedstore.server.internal.requests.SubscribeFields;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The endpoints of the HTTP API that mirror {@link ApiCalls}: each reads its request (a JSON body,
 * the fields of the API's request without what the path gives, or query parameters), checks it
 * with the API's rules ({@link Requests}), runs the call, and answers its response as JSON with the
 * API's field names. Thread-safe.
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
  private static final Map<String, Kind> SUBSCRIBE = Map.of("feed_ids", Kind.TEXTS, "namespaces", Kind.TEXTS,
      "ttl_ms", Kind.WHOLE, "durable", Kind.FLAG, "name", Kind.TEXT, "ack_within_ms", Kind.WHOLE);
  private static final Map<String, Kind> ACK = Map.of("subscription_id", Kind.TEXT, "up_to", Kind.WHOLE);
  private static final Map<String, Kind> COMPACT = Map.of("up_to", Kind.WHOLE);
  private static final Map<String, Kind> RETENTION = Map.of("blocks", Kind.WHOLE, "age_ms", Kind.WHOLE,
      "bytes", Kind.WHOLE, "server_default", Kind.FLAG);

  private final ServerCore core;
  private final ApiCalls calls;

  HttpCalls(ServerCore core) {
    this.core = core;
    this.calls = core.calls();
  }

  void subscribe(HttpExchange exchange, Caller caller, Map<String, String> path) {
    JsonBody.read(exchange, core, body -> {
      JsonBody.Fields request = JsonBody.parse(body, "of a subscription: {\"feed_ids\": [...], \"namespaces\": [...],"
          + " \"ttl_ms\": N} or {\"feed_ids\": [...], \"namespaces\": [...], \"durable\": true, \"name\": NAME,"
          + " \"ack_within_ms\": N}", exchange.space(), SUBSCRIBE);
      SubscribeResult result = calls.subscribe(caller, Requests.subscribe(new SubscribeFields(exchange.space(),
          request.texts("feed_ids"), request.texts("namespaces"), request.whole("ttl_ms"), request.flag("durable"),
          request.text("name"), request.whole("ack_within_ms")), core.settings()));
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
    String subscriptionId = Requests.named("subscription",
        () -> Requests.subscriptionId(path.get("subscription")));
    JsonBody.read(exchange, core, body -> {
      JsonBody.Fields request = JsonBody.parse(body, "of an acknowledgement: " + UP_TO, exchange.space(), ACK);
      JsonBody.sameAsPath("subscription_id", request.text("subscription_id").orElse(""), subscriptionId,
          "subscription");
      SubscribeResult result = calls.ack(caller, spaceId(exchange), subscriptionId, request.whole("up_to").orElse(0));
      exchange.json(200, Json.object()
          .field("acked", result.subscription().durable().orElseThrow().acked())
          .field("expires_at", result.subscription().expiresAtMillis())
          .field("server_token", result.token().value())
          .end());
    });
  }

  void subscriptions(HttpExchange exchange, Caller caller, Map<String, String> path) {
    HttpParams.of(exchange.request(), Set.of());
    DurableList list = calls.subscriptions(caller, spaceId(exchange));
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
    Optional<Namespace> namespace = params.one("namespace").map(ns -> Requests.namespace(ns, "namespace"));
    Optional<FeedId> after = params.one("after").map(feed -> Requests.named("after", () -> new FeedId(feed)));
    OptionalLong limit = params.count("limit");
    int size = Requests.listLimit((int) Math.min(Integer.MAX_VALUE, limit.orElse(0)), core.settings());
    FeedList list = calls.feeds(caller, spaceId(exchange), namespace, after, size);
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
      JsonBody.Fields request = JsonBody.parse(body, "of a compaction: " + UP_TO, exchange.space(), COMPACT);
      CompactResult result = calls.compact(caller, spaceId(exchange), Requests.upTo(request.whole("up_to").orElse(0)));
      exchange.json(200, Json.object()
          .field("floor", result.floor().value())
          .field("removed", result.removed())
          .field("server_token", result.token().value())
          .end());
    });
  }

  void setRetention(HttpExchange exchange, Caller caller, Map<String, String> path) {
    JsonBody.read(exchange, core, body -> {
      JsonBody.Fields request = JsonBody.parse(body, "of a retention: {\"blocks\": N, \"age_ms\": N, \"bytes\": N} or"
          + " {\"server_default\": true}", exchange.space(), RETENTION);
      RetentionResult result = calls.setRetention(caller, spaceId(exchange), Requests.retention(
          request.whole("blocks").orElse(0), request.whole("age_ms").orElse(0), request.whole("bytes").orElse(0),
          request.flag("server_default")));
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

  /** The path's space. */
  private static SpaceId spaceId(HttpExchange exchange) {
    return Requests.named("space", () -> new SpaceId(exchange.space()));
  }
}
