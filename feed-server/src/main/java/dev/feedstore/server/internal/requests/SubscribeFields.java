package dev.feedstore.server.internal.requests;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A Subscribe as its transport carried it, before it is checked ({@link Requests#subscribe}): the
 * values under the API's field names, unchecked. Immutable.
 *
 * @param spaceId {@code space_id}
 * @param feedIds {@code feed_ids}, empty for none
 * @param namespaces {@code namespaces}, empty for none
 * @param ttlMs {@code ttl_ms}, if given
 * @param durable {@code durable}
 * @param name {@code name}, if given
 * @param ackWithinMs {@code ack_within_ms}, if given
 */
public record SubscribeFields(String spaceId, List<String> feedIds, List<String> namespaces, OptionalLong ttlMs,
    boolean durable, Optional<String> name, OptionalLong ackWithinMs) {

  public SubscribeFields {
    Objects.requireNonNull(spaceId, "spaceId");
    feedIds = List.copyOf(feedIds);
    namespaces = List.copyOf(namespaces);
    Objects.requireNonNull(ttlMs, "ttlMs");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(ackWithinMs, "ackWithinMs");
  }
}
