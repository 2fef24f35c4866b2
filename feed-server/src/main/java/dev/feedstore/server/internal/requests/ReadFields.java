package dev.feedstore.server.internal.requests;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A Query or a Watch as its transport carried it, before it is checked ({@link Requests#query},
 * {@link Requests#watch}): the values under the API's field names, unchecked. Immutable.
 *
 * @param spaceId {@code space_id}
 * @param feedIds {@code feed_ids}, empty for none
 * @param subscriptionId {@code subscription_id}, if given
 * @param namespace {@code namespace}, if given
 * @param cursor {@code cursor}
 * @param expectedToken {@code expected_server_token}, if given
 * @param fromAck {@code from_ack}
 * @param startTime {@code start_time}, if given
 */
public record ReadFields(String spaceId, List<String> feedIds, Optional<String> subscriptionId,
    Optional<String> namespace, long cursor, Optional<String> expectedToken, boolean fromAck, OptionalLong startTime) {

  public ReadFields {
    Objects.requireNonNull(spaceId, "spaceId");
    feedIds = List.copyOf(feedIds);
    Objects.requireNonNull(subscriptionId, "subscriptionId");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(expectedToken, "expectedToken");
    Objects.requireNonNull(startTime, "startTime");
  }
}
