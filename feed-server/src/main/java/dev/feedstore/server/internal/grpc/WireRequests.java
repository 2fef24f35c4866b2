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
import dev.feedstore.server.internal.requests.SubscribeFields;
import dev.feedstore.core.store.Retention;
import dev.feedstore.proto.v1.SetRetentionRequest;
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

  static ReadRequest watch(WatchRequest request, ServerSettings settings) {
    return Requests.watch(new ReadFields(request.getSpaceId(), request.getFeedIdsList(),
        request.hasSubscriptionId() ? Optional.of(request.getSubscriptionId()) : Optional.empty(),
        request.hasNamespace() ? Optional.of(request.getNamespace()) : Optional.empty(), request.getCursor(),
        request.hasExpectedServerToken() ? Optional.of(request.getExpectedServerToken()) : Optional.empty(),
        request.getFromAck(), request.hasStartTime() ? OptionalLong.of(request.getStartTime()) : OptionalLong.empty()),
        settings);
  }

  static SubscribeCommand subscribe(SubscribeRequest request, ServerSettings settings) {
    return Requests.subscribe(new SubscribeFields(request.getSpaceId(), request.getFeedIdsList(),
        request.getNamespacesList(), request.hasTtlMs() ? OptionalLong.of(request.getTtlMs()) : OptionalLong.empty(),
        request.getDurable(), request.hasName() ? Optional.of(request.getName()) : Optional.empty(),
        request.hasAckWithinMs() ? OptionalLong.of(request.getAckWithinMs()) : OptionalLong.empty()), settings);
  }

  /** The retention a SetRetention asks for ({@link Requests#retention}). */
  static Optional<Retention> retention(SetRetentionRequest request) {
    return Requests.retention(request.getBlocks(), request.getAgeMs(), request.getBytes(), request.getServerDefault());
  }
}
