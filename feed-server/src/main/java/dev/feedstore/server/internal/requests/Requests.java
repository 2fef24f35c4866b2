package dev.feedstore.server.internal.requests;

import static dev.feedstore.server.settings.ServerSettings.FEEDS_PER_SCOPE;
import static dev.feedstore.server.settings.ServerSettings.QUERY_LIMIT;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.LimitExceededException;
import dev.feedstore.core.Limits;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.server.internal.authority.ReadRequest;
import dev.feedstore.server.internal.authority.ScopeRequest;
import dev.feedstore.server.internal.authority.SubscribeCommand;
import dev.feedstore.core.store.Retention;
import dev.feedstore.server.settings.ServerSettings;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * The rules of the API's requests, whatever transport carried them: a bad value is an {@link
 * InvalidValueException} naming the API's field ({@code blocks[2].position}, {@code cursor}), the
 * rule and the value; a value over a limit is a {@link LimitExceededException} naming the setting.
 * Nothing here touches the store. Stateless and thread-safe.
 */
public final class Requests {
  /** The number of blocks a Query returns when its {@code limit} is 0 (DESIGN 4.4). */
  public static final int DEFAULT_QUERY_LIMIT = 100;
  private static final int MAX_SUBSCRIPTION_ID_CHARS = 128;
  private static final int MAX_SUBSCRIPTION_NAME_CHARS = 128;

  private Requests() {}

  /** Runs a constructor of a domain value and names {@code field} in its rejection. */
  public static <T> T named(String field, Supplier<T> make) {
    try {
      return make.get();
    } catch (InvalidValueException e) {
      throw e.field().equals(field) ? e : e.withField(field);
    }
  }

  /** The space named by {@code space_id}. */
  public static SpaceId spaceId(String value) {
    return named("space_id", () -> new SpaceId(value));
  }

  /** A namespace named by {@code field}. */
  public static Namespace namespace(String value, String field) {
    return named(field, () -> new Namespace(value));
  }

  /** Checks how many blocks an Append holds: at least one, at most {@code blocks-per-append}. */
  public static void blockCount(int count, Limits limits) {
    if (count == 0) {
      throw new InvalidValueException("blocks", "must hold at least one block", "none");
    }
    if (count > limits.maxBlocksPerAppend()) {
      throw new LimitExceededException(Limits.Key.BLOCKS_PER_APPEND, limits.maxBlocksPerAppend(), count,
          "blocks of the append");
    }
  }

  /** Refuses the position {@code block} (such as {@code blocks[2]}) of an Append was given. */
  public static InvalidValueException positionGiven(String block, long position) {
    return new InvalidValueException(block + ".position", "must be absent in Append (the authority assigns"
        + " positions)", position);
  }

  /** Checks the size of the data of {@code block} (such as {@code blocks[2]}): at most {@code block-bytes}. */
  public static void blockData(String block, int size, Limits limits) {
    if (size > limits.maxBlockBytes()) {
      throw new LimitExceededException(Limits.Key.BLOCK_BYTES, limits.maxBlockBytes(), size, block + ".data");
    }
  }

  /** A Query of at most {@code limit} blocks (0: the default of {@value #DEFAULT_QUERY_LIMIT}, at most {@code query-limit}). */
  public static ReadRequest query(ReadFields read, int limit, ServerSettings settings) {
    return read(read, () -> {
      if (limit < 0) {
        throw new InvalidValueException("limit", "must be >= 0 (0 means the default of " + DEFAULT_QUERY_LIMIT + ")",
            limit);
      }
      if (limit > settings.get(QUERY_LIMIT)) {
        throw new LimitExceededException(Limits.Key.QUERY_LIMIT, settings.get(QUERY_LIMIT), limit,
            "limit of the query");
      }
      return limit == 0 ? Math.min(DEFAULT_QUERY_LIMIT, settings.get(QUERY_LIMIT)) : limit;
    }, settings);
  }

  /** The start of a Watch. */
  public static ReadRequest watch(ReadFields read, ServerSettings settings) {
    return read(read, () -> 0, settings);
  }

  /** A read, with its {@code limit} checked after its scope and cursor. */
  private static ReadRequest read(ReadFields read, IntSupplier limit, ServerSettings settings) {
    SpaceId spaceId = spaceId(read.spaceId());
    ScopeRequest scope = scope(read.feedIds(), read.subscriptionId(), read.namespace(), settings);
    Position cursor = cursor(read.cursor());
    int checkedLimit = limit.getAsInt();
    fromAck(read.fromAck(), scope, cursor);
    return new ReadRequest(spaceId, scope, cursor, checkedLimit, read.expectedToken(), read.fromAck(),
        startTime(read.startTime(), cursor, read.fromAck()));
  }

  /** Checks a subscription id: 1-128 characters, as Subscribe hands them out. */
  public static String subscriptionId(String id) {
    if (id.isEmpty() || id.length() > MAX_SUBSCRIPTION_ID_CHARS) {
      throw new InvalidValueException("subscription_id",
          "must be 1-" + MAX_SUBSCRIPTION_ID_CHARS + " characters (an id returned by Subscribe)", id);
    }
    return id;
  }

  /** Checks how many feeds and namespaces a scope names: at most {@code feeds-per-scope}. */
  public static void scopeSize(int size, String what, ServerSettings settings) {
    if (size > settings.get(FEEDS_PER_SCOPE)) {
      throw new LimitExceededException(FEEDS_PER_SCOPE.name(), settings.get(FEEDS_PER_SCOPE), size, what);
    }
  }

  /** The feeds of {@code feed_ids}, each named {@code feed_ids[i]} when it is not one. */
  public static Set<FeedId> feedIds(List<String> values) {
    Set<FeedId> feeds = new LinkedHashSet<>();
    for (int i = 0; i < values.size(); i++) {
      String value = values.get(i);
      feeds.add(named("feed_ids[" + i + "]", () -> new FeedId(value)));
    }
    return feeds;
  }

  /** A read's start time, if given: a time >= 0, instead of a cursor and of from_ack. */
  private static OptionalLong startTime(OptionalLong startTime, Position cursor, boolean fromAck) {
    if (startTime.isEmpty()) {
      return startTime;
    }
    long time = startTime.getAsLong();
    if (time < 0) {
      throw new InvalidValueException("start_time", "must be >= 0 (Unix milliseconds)", time);
    }
    if (cursor.isAssigned()) {
      throw new InvalidValueException("start_time", "must not be given with a cursor (cursor must be 0: the start"
          + " time is resolved to the cursor); cursor was " + cursor.value(), time);
    }
    if (fromAck) {
      throw new InvalidValueException("start_time", "must not be given with from_ack (the subscription's"
          + " acknowledged position is the cursor)", time);
    }
    return startTime;
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
      return ScopeRequest.of(Scope.namespace(namespace(namespace.get(), "namespace")));
    }
    if (!feedIds.isEmpty()) {
      scopeSize(feedIds.size(), "feed_ids", settings);
      return ScopeRequest.of(Scope.feeds(feedIds(feedIds)));
    }
    return ScopeRequest.WHOLE_SPACE;
  }

  private static Position cursor(long cursor) {
    if (cursor < 0) {
      throw new InvalidValueException("cursor", "must be >= 0 (0 reads from the start)", cursor);
    }
    return Position.of(cursor);
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

  /**
   * The Subscribe {@code fields} ask for.
   *
   * @throws InvalidValueException naming the field of a value that breaks a rule
   * @throws LimitExceededException if it names more feeds and namespaces than feeds-per-scope
   */
  public static SubscribeCommand subscribe(SubscribeFields fields, ServerSettings settings) {
    SpaceId spaceId = spaceId(fields.spaceId());
    scopeSize(fields.feedIds().size() + fields.namespaces().size(), "feed_ids and namespaces", settings);
    Set<FeedId> feeds = feedIds(fields.feedIds());
    Set<Namespace> namespaces = new LinkedHashSet<>();
    for (int i = 0; i < fields.namespaces().size(); i++) {
      namespaces.add(namespace(fields.namespaces().get(i), "namespaces[" + i + "]"));
    }
    if (feeds.isEmpty() && namespaces.isEmpty()) {
      throw new InvalidValueException("feed_ids and namespaces",
          "must name at least one feed or namespace between them", "both empty");
    }
    if (!fields.durable()) {
      if (fields.ackWithinMs().isPresent()) {
        throw new InvalidValueException("ack_within_ms", "is for a durable subscription only (durable = true)",
            fields.ackWithinMs().getAsLong());
      }
      if (fields.name().isPresent()) {
        throw new InvalidValueException("name", "is for a durable subscription only (durable = true)",
            fields.name().get());
      }
      return new SubscribeCommand(spaceId, new Scope.Selection(feeds, namespaces), fields.ttlMs());
    }
    if (fields.ttlMs().isPresent()) {
      throw new InvalidValueException("ttl_ms", "is not for a durable subscription, whose deadline is ack_within_ms"
          + " (it moves when it is acknowledged, not when it is used)", fields.ttlMs().getAsLong());
    }
    return new SubscribeCommand(spaceId, new Scope.Selection(feeds, namespaces), fields.ackWithinMs(), true,
        fields.name().map(Requests::subscriptionName));
  }

  /** Checks the name of a durable subscription: 1-128 printable ASCII characters. */
  private static String subscriptionName(String name) {
    if (name.isEmpty() || name.length() > MAX_SUBSCRIPTION_NAME_CHARS
        || !name.chars().allMatch(c -> c >= 0x20 && c <= 0x7e)) {
      throw new InvalidValueException("name",
          "must be 1-" + MAX_SUBSCRIPTION_NAME_CHARS + " printable ASCII characters (a name of your choice)", name);
    }
    return name;
  }

  /** The {@code up_to} of a Compact: a position, at least 1. */
  public static Position upTo(long upTo) {
    if (upTo < 1) {
      throw new InvalidValueException("up_to", "must be >= 1 (the highest position to remove)", upTo);
    }
    return Position.of(upTo);
  }

  /**
   * The retention a SetRetention asks for: the space's own bounds (0 keeps everything by that
   * measure), or empty for the server's settings ({@code serverDefault}).
   *
   * @throws InvalidValueException naming a negative bound, or bounds given with server_default
   */
  public static Optional<Retention> retention(long blocks, long ageMs, long bytes, boolean serverDefault) {
    notNegative("blocks", blocks);
    notNegative("age_ms", ageMs);
    notNegative("bytes", bytes);
    if (serverDefault) {
      if (blocks != 0 || ageMs != 0 || bytes != 0) {
        throw new InvalidValueException("server_default", "must not be given with bounds (the server's settings"
            + " replace them); send the bounds alone, or server_default alone", true);
      }
      return Optional.empty();
    }
    return Optional.of(Retention.of(blocks, ageMs, bytes));
  }

  private static void notNegative(String field, long value) {
    if (value < 0) {
      throw new InvalidValueException(field, "must be >= 0 (0 keeps everything by this measure)", value);
    }
  }
}
