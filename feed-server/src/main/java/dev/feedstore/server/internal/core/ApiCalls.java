package dev.feedstore.server.internal.core;

import static dev.feedstore.server.settings.ServerSettings.BLOCKS_PER_APPEND;
import static dev.feedstore.server.settings.ServerSettings.BLOCK_BYTES;
import static dev.feedstore.server.settings.ServerSettings.MAX_MESSAGE_BYTES;
import static dev.feedstore.server.settings.ServerSettings.QUERY_LIMIT;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.Retention;
import dev.feedstore.server.internal.access.Caller;
import dev.feedstore.server.internal.authority.CompactResult;
import dev.feedstore.server.internal.authority.DurableList;
import dev.feedstore.server.internal.authority.FeedList;
import dev.feedstore.server.internal.authority.PositionAuthority;
import dev.feedstore.server.internal.authority.RetentionResult;
import dev.feedstore.server.internal.authority.SubscribeCommand;
import dev.feedstore.server.internal.authority.SubscribeResult;
import dev.feedstore.server.internal.monitoring.ServerVersion;
import dev.feedstore.server.settings.ServerSettings;
import java.util.Optional;

/**
 * The calls of the API besides reads, appends and live streams, made the same way whatever the
 * transport (gRPC's {@code FeedSync}, the HTTP API): subscriptions, their acknowledgements and
 * list, the feed list, the server's limits, compaction and retention. A transport checks a request
 * into its command, admits its caller to the space the request names (the token may use the space,
 * the principal is within its request rate), then calls here, where what the call needs beyond
 * that is checked (the namespaces the caller may read, {@link BlockAccess}; an admin grant to remove
 * history) and the authority does the work, so that a
 * rule of access changes in one place for every transport. Stateless and thread-safe; every call
 * blocks on the store.
 */
public final class ApiCalls {
  private final PositionAuthority authority;
  private final BlockAccess access;
  private final ServerSettings settings;

  ApiCalls(PositionAuthority authority, BlockAccess access, ServerSettings settings) {
    this.authority = authority;
    this.access = access;
    this.settings = settings;
  }

  /** What GetServerInfo answers: the server's version and the limits a request must fit. */
  public record ServerInfo(String version, int maxMessageBytes, int blocksPerAppend, int blockBytes, int queryLimit,
      long maxResponseBytes) {}

  /**
   * Stores a subscription ({@link PositionAuthority#subscribe}) for {@code caller}.
   *
   * @throws dev.feedstore.server.internal.errors.AccessDeniedException if the caller may not read its scope
   * @throws dev.feedstore.core.InvalidValueException if the TTL is not positive or the name is
   *     taken by another scope
   * @throws dev.feedstore.core.LimitExceededException over a subscription limit
   */
  public SubscribeResult subscribe(Caller caller, SubscribeCommand command) {
    access.subscribe(caller, command);
    return authority.subscribe(command);
  }

  /**
   * Acknowledges a durable subscription up to {@code upTo} for {@code caller}.
   *
   * @throws dev.feedstore.server.internal.errors.SubscriptionNotFoundException if it is unknown or expired
   * @throws dev.feedstore.server.internal.errors.AccessDeniedException if the caller may not read its scope
   * @throws dev.feedstore.core.InvalidValueException if it is not durable or {@code upTo} is out of range
   */
  public SubscribeResult ack(Caller caller, SpaceId spaceId, String subscriptionId, long upTo) {
    access.ack(caller, spaceId, subscriptionId);
    return authority.ack(spaceId, subscriptionId, upTo);
  }

  /** The durable subscriptions of a space, for {@code caller}. */
  public DurableList subscriptions(Caller caller, SpaceId spaceId) {
    return authority.durables(spaceId);
  }

  /**
   * A page of the feeds of a space, of {@code namespace} if given, after {@code after}, for {@code caller}.
   *
   * @throws dev.feedstore.server.internal.errors.AccessDeniedException if the caller may not read
   *     those feeds (a caller with namespace grants names one of them)
   */
  public FeedList feeds(Caller caller, SpaceId spaceId, Optional<Namespace> namespace, Optional<FeedId> after,
      int limit) {
    access.listFeeds(caller, spaceId, namespace);
    return authority.listFeeds(spaceId, namespace, after, limit);
  }

  /**
   * Removes the space's history up to {@code upTo} ({@link PositionAuthority#compact}).
   *
   * @throws dev.feedstore.server.internal.errors.AccessDeniedException unless {@code caller} holds
   *     an admin grant for the space
   */
  public CompactResult compact(Caller caller, SpaceId spaceId, Position upTo) {
    caller.checkAdmin("Compact", spaceId.value());
    return authority.compact(spaceId, upTo);
  }

  /**
   * Sets the space's own retention (empty: the server's settings again) and applies it.
   *
   * @throws dev.feedstore.server.internal.errors.AccessDeniedException unless {@code caller} holds
   *     an admin grant for the space
   */
  public RetentionResult setRetention(Caller caller, SpaceId spaceId, Optional<Retention> retention) {
    caller.checkAdmin("SetRetention", spaceId.value());
    return authority.setRetention(spaceId, retention);
  }

  /**
   * The server's version and limits.
   *
   * @throws dev.feedstore.server.internal.errors.AccessDeniedException if the server needs a token
   *     and {@code caller} has none it knows
   */
  public ServerInfo serverInfo(Caller caller) {
    caller.checkKnown();
    return new ServerInfo(ServerVersion.get(), settings.get(MAX_MESSAGE_BYTES), settings.get(BLOCKS_PER_APPEND),
        settings.get(BLOCK_BYTES), settings.get(QUERY_LIMIT), settings.maxResponseBytes());
  }
}
