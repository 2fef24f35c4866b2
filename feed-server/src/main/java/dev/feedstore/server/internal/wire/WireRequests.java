package dev.feedstore.server.internal.wire;

import static dev.feedstore.server.settings.ServerSettings.FEEDS_PER_SCOPE;
import static dev.feedstore.server.settings.ServerSettings.QUERY_LIMIT;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.LimitExceededException;
import dev.feedstore.core.Limits;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.proto.WireMapping;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.SubscribeRequest;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.internal.authority.AppendCommand;
import dev.feedstore.server.internal.authority.ReadRequest;
import dev.feedstore.server.internal.authority.ScopeRequest;
import dev.feedstore.server.internal.authority.SubscribeCommand;
import dev.feedstore.server.settings.ServerSettings;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Validates wire requests into domain commands. A bad value is an {@link InvalidValueException}
 * naming the wire field, the rule and the value; a value over a limit is a {@link
 * LimitExceededException} naming the setting. Nothing here touches the store. Stateless and
 * thread-safe.
 */
public final class WireRequests {
  /** The number of blocks a Query returns when its {@code limit} is 0 (DESIGN 4.4). */
  static final int DEFAULT_QUERY_LIMIT = 100;
  private static final int MAX_SUBSCRIPTION_ID_CHARS = 128;
  private static final int MAX_SUBSCRIPTION_NAME_CHARS = 128;
  /**
   * The longest {@code request_id}. Every response echoes it (every event of a Watch, too), so an
   * unbounded one could make a response larger than the client accepts after the work was done.
   */
  static final int MAX_REQUEST_ID_CHARS = 128;

  private WireRequests() {}

  /** Checks the {@code request_id} of any request: at most {@value #MAX_REQUEST_ID_CHARS} characters. */
  public static void requestId(String requestId) {
    if (requestId.length() > MAX_REQUEST_ID_CHARS) {
      throw new InvalidValueException("request_id",
          "must be at most " + MAX_REQUEST_ID_CHARS + " characters (responses echo it)", requestId);
    }
  }

  public static AppendCommand append(AppendRequest request, Limits limits) {
    SpaceId spaceId = WireMapping.spaceId(request.getSpaceId());
    Optional<Namespace> namespace = request.hasNamespace()
        ? Optional.of(WireMapping.namespace(request.getNamespace(), "namespace"))
        : Optional.empty();
    int count = request.getBlocksCount();
    if (count == 0) {
      throw new InvalidValueException("blocks", "must hold at least one block", "none");
    }
    if (count > limits.maxBlocksPerAppend()) {
      throw new LimitExceededException(Limits.Key.BLOCKS_PER_APPEND, limits.maxBlocksPerAppend(), count,
          "blocks of the append");
    }
    List<Block> blocks = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      dev.feedstore.proto.v1.Block wire = request.getBlocks(i);
      String field = "blocks[" + i + "]";
      if (wire.hasPosition()) {
        throw new InvalidValueException(field + ".position",
            "must be absent in Append (the authority assigns positions)", wire.getPosition());
      }
      if (wire.getData().size() > limits.maxBlockBytes()) {
        throw new LimitExceededException(Limits.Key.BLOCK_BYTES, limits.maxBlockBytes(), wire.getData().size(),
            field + ".data");
      }
      blocks.add(WireMapping.toDomain(wire, field));
    }
    return new AppendCommand(spaceId, namespace, blocks);
  }

  public static ReadRequest query(QueryRequest request, ServerSettings settings) {
    SpaceId spaceId = WireMapping.spaceId(request.getSpaceId());
    ScopeRequest scope = scope(request.getFeedIdsList(),
        request.hasSubscriptionId() ? Optional.of(request.getSubscriptionId()) : Optional.empty(),
        request.hasNamespace() ? Optional.of(request.getNamespace()) : Optional.empty(), settings);
    Position cursor = cursor(request.getCursor());
    int limit = request.getLimit();
    if (limit < 0) {
      throw new InvalidValueException("limit", "must be >= 0 (0 means the default of " + DEFAULT_QUERY_LIMIT + ")", limit);
    }
    if (limit > settings.get(QUERY_LIMIT)) {
      throw new LimitExceededException(Limits.Key.QUERY_LIMIT, settings.get(QUERY_LIMIT), limit, "limit of the query");
    }
    fromAck(request.getFromAck(), scope, cursor);
    OptionalLong startTime = startTime(request.hasStartTime(), request.getStartTime(), cursor, request.getFromAck());
    int queryLimit = settings.get(QUERY_LIMIT);
    return new ReadRequest(spaceId, scope, cursor, limit == 0 ? Math.min(DEFAULT_QUERY_LIMIT, queryLimit) : limit,
        request.hasExpectedServerToken() ? Optional.of(request.getExpectedServerToken()) : Optional.empty(),
        request.getFromAck(), startTime);
  }

  /** The page size of a ListFeeds: {@code limit}, or query-limit when it is 0. */
  public static int listLimit(int limit, ServerSettings settings) {
    if (limit < 0) {
      throw new InvalidValueException("limit", "must be >= 0 (0 means the server's " + Limits.Key.QUERY_LIMIT + ", "
          + settings.get(QUERY_LIMIT) + ")", limit);
    }
    if (limit > settings.get(QUERY_LIMIT)) {
      throw new LimitExceededException(Limits.Key.QUERY_LIMIT, settings.get(QUERY_LIMIT), limit,
          "limit of the feed list");
    }
    return limit == 0 ? settings.get(QUERY_LIMIT) : limit;
  }

  public static ReadRequest watch(WatchRequest request, ServerSettings settings) {
    SpaceId spaceId = WireMapping.spaceId(request.getSpaceId());
    ScopeRequest scope = scope(request.getFeedIdsList(),
        request.hasSubscriptionId() ? Optional.of(request.getSubscriptionId()) : Optional.empty(),
        request.hasNamespace() ? Optional.of(request.getNamespace()) : Optional.empty(), settings);
    Position cursor = cursor(request.getCursor());
    fromAck(request.getFromAck(), scope, cursor);
    OptionalLong startTime = startTime(request.hasStartTime(), request.getStartTime(), cursor, request.getFromAck());
    return new ReadRequest(spaceId, scope, cursor, 0,
        request.hasExpectedServerToken() ? Optional.of(request.getExpectedServerToken()) : Optional.empty(),
        request.getFromAck(), startTime);
  }

  public static SubscribeCommand subscribe(SubscribeRequest request, ServerSettings settings) {
    SpaceId spaceId = WireMapping.spaceId(request.getSpaceId());
    checkScopeSize(request.getFeedIdsCount() + request.getNamespacesCount(), "feed_ids and namespaces", settings);
    Set<FeedId> feeds = feedIds(request.getFeedIdsList());
    Set<Namespace> namespaces = new LinkedHashSet<>();
    for (int i = 0; i < request.getNamespacesCount(); i++) {
      namespaces.add(WireMapping.namespace(request.getNamespaces(i), "namespaces[" + i + "]"));
    }
    if (feeds.isEmpty() && namespaces.isEmpty()) {
      throw new InvalidValueException("feed_ids and namespaces",
          "must name at least one feed or namespace between them", "both empty");
    }
    if (!request.getDurable()) {
      if (request.hasAckWithinMs()) {
        throw new InvalidValueException("ack_within_ms", "is for a durable subscription only (durable = true)",
            request.getAckWithinMs());
      }
      if (request.hasName()) {
        throw new InvalidValueException("name", "is for a durable subscription only (durable = true)",
            request.getName());
      }
      OptionalLong ttl = request.hasTtlMs() ? OptionalLong.of(request.getTtlMs()) : OptionalLong.empty();
      return new SubscribeCommand(spaceId, new Scope.Selection(feeds, namespaces), ttl);
    }
    if (request.hasTtlMs()) {
      throw new InvalidValueException("ttl_ms", "is not for a durable subscription, whose deadline is ack_within_ms"
          + " (it moves when it is acknowledged, not when it is used)", request.getTtlMs());
    }
    OptionalLong ackWithin = request.hasAckWithinMs() ? OptionalLong.of(request.getAckWithinMs()) : OptionalLong.empty();
    Optional<String> name = request.hasName() ? Optional.of(subscriptionName(request.getName())) : Optional.empty();
    return new SubscribeCommand(spaceId, new Scope.Selection(feeds, namespaces), ackWithin, true, name);
  }

  /** Checks the name of a durable subscription: 1-128 printable ASCII characters. */
  static String subscriptionName(String name) {
    if (name.isEmpty() || name.length() > MAX_SUBSCRIPTION_NAME_CHARS
        || !name.chars().allMatch(c -> c >= 0x20 && c <= 0x7e)) {
      throw new InvalidValueException("name",
          "must be 1-" + MAX_SUBSCRIPTION_NAME_CHARS + " printable ASCII characters (a name of your choice)", name);
    }
    return name;
  }

  /** Checks a subscription id given on its own (Ack): as in a scope. */
  public static String subscriptionId(String id) {
    if (id.isEmpty() || id.length() > MAX_SUBSCRIPTION_ID_CHARS) {
      throw new InvalidValueException("subscription_id",
          "must be 1-" + MAX_SUBSCRIPTION_ID_CHARS + " characters (an id returned by Subscribe)", id);
    }
    return id;
  }

  /** A read's start time, if given: a time >= 0, instead of a cursor and of from_ack. */
  private static OptionalLong startTime(boolean given, long startTime, Position cursor, boolean fromAck) {
    if (!given) {
      return OptionalLong.empty();
    }
    if (startTime < 0) {
      throw new InvalidValueException("start_time", "must be >= 0 (Unix milliseconds)", startTime);
    }
    if (cursor.isAssigned()) {
      throw new InvalidValueException("start_time", "must not be given with a cursor (cursor must be 0: the start"
          + " time is resolved to the cursor); cursor was " + cursor.value(), startTime);
    }
    if (fromAck) {
      throw new InvalidValueException("start_time", "must not be given with from_ack (the subscription's"
          + " acknowledged position is the cursor)", startTime);
    }
    return OptionalLong.of(startTime);
  }

  private static void fromAck(boolean fromAck, ScopeRequest scope, Position cursor) {
    if (!fromAck) {
      return;
    }
    if (scope.subscriptionId().isEmpty()) {
      throw new InvalidValueException("from_ack", "needs a durable subscription in subscription_id", "no subscription_id");
    }
    if (cursor.isAssigned()) {
      throw new InvalidValueException("cursor", "must be 0 with from_ack (the subscription's acknowledged position"
          + " is the cursor)", cursor.value());
    }
  }

  private static ScopeRequest scope(List<String> feedIds, Optional<String> subscriptionId, Optional<String> namespace,
      ServerSettings settings) {
    List<String> given = new ArrayList<>();
    if (!feedIds.isEmpty()) {
      given.add("feed_ids");
    }
    subscriptionId.ifPresent(id -> given.add("subscription_id"));
    namespace.ifPresent(ns -> given.add("namespace"));
    if (given.size() > 1) {
      throw new InvalidValueException("scope",
          "must be given by at most one of feed_ids, subscription_id and namespace", String.join(" and ", given));
    }
    if (subscriptionId.isPresent()) {
      return ScopeRequest.subscription(subscriptionId(subscriptionId.get()));
    }
    if (namespace.isPresent()) {
      return ScopeRequest.of(Scope.namespace(WireMapping.namespace(namespace.get(), "namespace")));
    }
    if (!feedIds.isEmpty()) {
      checkScopeSize(feedIds.size(), "feed_ids", settings);
      return ScopeRequest.of(Scope.feeds(feedIds(feedIds)));
    }
    return ScopeRequest.WHOLE_SPACE;
  }

  private static void checkScopeSize(int size, String what, ServerSettings settings) {
    if (size > settings.get(FEEDS_PER_SCOPE)) {
      throw new LimitExceededException(FEEDS_PER_SCOPE.name(), settings.get(FEEDS_PER_SCOPE), size, what);
    }
  }

  private static Set<FeedId> feedIds(List<String> wire) {
    Set<FeedId> feeds = new LinkedHashSet<>();
    for (int i = 0; i < wire.size(); i++) {
      feeds.add(WireMapping.feedId(wire.get(i), "feed_ids[" + i + "]"));
    }
    return feeds;
  }

  /** The {@code up_to} of a Compact: a position, at least 1. */
  public static Position upTo(long upTo) {
    if (upTo < 1) {
      throw new InvalidValueException("up_to", "must be >= 1 (the highest position to remove)", upTo);
    }
    return Position.of(upTo);
  }

  /**
   * The retention a SetRetention asks for: the space's own, or empty for the server's settings.
   *
   * @throws InvalidValueException naming a negative bound, or bounds given with server_default
   */
  public static java.util.Optional<dev.feedstore.core.store.Retention> retention(
      dev.feedstore.proto.v1.SetRetentionRequest request) {
    notNegative("blocks", request.getBlocks());
    notNegative("age_ms", request.getAgeMs());
    notNegative("bytes", request.getBytes());
    if (request.getServerDefault()) {
      if (request.getBlocks() != 0 || request.getAgeMs() != 0 || request.getBytes() != 0) {
        throw new InvalidValueException("server_default", "must not be given with bounds (the server's settings"
            + " replace them); send the bounds alone, or server_default alone", true);
      }
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(dev.feedstore.core.store.Retention.of(request.getBlocks(), request.getAgeMs(),
        request.getBytes()));
  }

  private static void notNegative(String field, long value) {
    if (value < 0) {
      throw new InvalidValueException(field, "must be >= 0 (0 keeps everything by this measure)", value);
    }
  }

  private static Position cursor(long cursor) {
    if (cursor < 0) {
      throw new InvalidValueException("cursor", "must be >= 0 (0 reads from the start)", cursor);
    }
    return Position.of(cursor);
  }
}
