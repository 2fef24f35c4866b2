package dev.feedstore.server.internal.grpc;

import static dev.feedstore.server.settings.ServerSettings.QUERY_LIMIT;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.LimitExceededException;
import dev.feedstore.core.Limits;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.server.internal.requests.ReadFields;
import dev.feedstore.server.internal.requests.Requests;
import dev.feedstore.core.SpaceId;
import dev.feedstore.proto.WireMapping;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.SubscribeRequest;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.internal.authority.AppendCommand;
import dev.feedstore.server.internal.authority.ReadRequest;
import dev.feedstore.server.internal.authority.SubscribeCommand;
import dev.feedstore.server.settings.ServerSettings;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Reads {@code feed.v1} requests into the authority's commands, checked by the API's rules ({@link
 * Requests}, which the HTTP edge applies too) and those of the messages themselves ({@link
 * WireMapping}): a bad value is an {@link InvalidValueException} naming the wire field, the rule and
 * the value; a value over a limit is a {@link LimitExceededException} naming the setting. Nothing
 * here touches the store. Stateless and thread-safe.
 */
final class WireRequests {
  private static final int MAX_SUBSCRIPTION_NAME_CHARS = 128;
  /**
   * The longest {@code request_id}. Every response echoes it (every event of a Watch, too), so an
   * unbounded one could make a response larger than the client accepts after the work was done.
   */
  static final int MAX_REQUEST_ID_CHARS = 128;

  private WireRequests() {}

  /** Checks the {@code request_id} of any request: at most {@value #MAX_REQUEST_ID_CHARS} characters. */
  static void requestId(String requestId) {
    if (requestId.length() > MAX_REQUEST_ID_CHARS) {
      throw new InvalidValueException("request_id",
          "must be at most " + MAX_REQUEST_ID_CHARS + " characters (responses echo it)", requestId);
    }
  }

  static AppendCommand append(AppendRequest request, Limits limits) {
    SpaceId spaceId = Requests.spaceId(request.getSpaceId());
    Optional<Namespace> namespace = request.hasNamespace()
        ? Optional.of(Requests.namespace(request.getNamespace(), "namespace"))
        : Optional.empty();
    int count = request.getBlocksCount();
    Requests.blockCount(count, limits);
    List<Block> blocks = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      dev.feedstore.proto.v1.Block wire = request.getBlocks(i);
      String field = "blocks[" + i + "]";
      if (wire.hasPosition()) {
        throw Requests.positionGiven(field, wire.getPosition());
      }
      Requests.blockData(field, wire.getData().size(), limits);
      blocks.add(WireMapping.toDomain(wire, field));
    }
    return new AppendCommand(spaceId, namespace, blocks);
  }

  static ReadRequest query(QueryRequest request, ServerSettings settings) {
    return Requests.query(new ReadFields(request.getSpaceId(), request.getFeedIdsList(),
        request.hasSubscriptionId() ? Optional.of(request.getSubscriptionId()) : Optional.empty(),
        request.hasNamespace() ? Optional.of(request.getNamespace()) : Optional.empty(), request.getCursor(),
        request.hasExpectedServerToken() ? Optional.of(request.getExpectedServerToken()) : Optional.empty(),
        request.getFromAck(), request.hasStartTime() ? OptionalLong.of(request.getStartTime()) : OptionalLong.empty()),
        request.getLimit(), settings);
  }

  /** The page size of a ListFeeds: {@code limit}, or query-limit when it is 0. */
  static int listLimit(int limit, ServerSettings settings) {
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

  static ReadRequest watch(WatchRequest request, ServerSettings settings) {
    return Requests.watch(new ReadFields(request.getSpaceId(), request.getFeedIdsList(),
        request.hasSubscriptionId() ? Optional.of(request.getSubscriptionId()) : Optional.empty(),
        request.hasNamespace() ? Optional.of(request.getNamespace()) : Optional.empty(), request.getCursor(),
        request.hasExpectedServerToken() ? Optional.of(request.getExpectedServerToken()) : Optional.empty(),
        request.getFromAck(), request.hasStartTime() ? OptionalLong.of(request.getStartTime()) : OptionalLong.empty()),
        settings);
  }

  static SubscribeCommand subscribe(SubscribeRequest request, ServerSettings settings) {
    SpaceId spaceId = Requests.spaceId(request.getSpaceId());
    Requests.scopeSize(request.getFeedIdsCount() + request.getNamespacesCount(), "feed_ids and namespaces", settings);
    Set<FeedId> feeds = Requests.feedIds(request.getFeedIdsList());
    Set<Namespace> namespaces = new LinkedHashSet<>();
    for (int i = 0; i < request.getNamespacesCount(); i++) {
      namespaces.add(Requests.namespace(request.getNamespaces(i), "namespaces[" + i + "]"));
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

  /** The {@code up_to} of a Compact: a position, at least 1. */
  static Position upTo(long upTo) {
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
  static java.util.Optional<dev.feedstore.core.store.Retention> retention(
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
}
