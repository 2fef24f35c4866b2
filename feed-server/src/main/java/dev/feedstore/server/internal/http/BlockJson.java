package dev.feedstore.server.internal.http;

import dev.feedstore.core.Block;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.Namespace;
import java.util.Base64;
import java.util.Optional;

/**
 * Blocks and keys as the HTTP transport writes them: the fields of the wire {@code Block} in
 * snake_case ({@code received_at} included when known), {@code data} in base64, the feed's {@code namespace} when it has one, and absent
 * optional fields left out. Stateless and thread-safe.
 */
final class BlockJson {
  private BlockJson() {}

  /** {@code {"position":..,"feed_id":..,...}} of a positioned block. */
  static String of(Block block, Optional<Namespace> namespace) {
    Json json = Json.object()
        .field("position", block.position().value())
        .field("feed_id", block.feedId().value());
    namespace.ifPresent(ns -> json.field("namespace", ns.value()));
    json.field("actor_id", block.actorId().value())
        .field("sequence", block.sequence().value());
    block.predecessor().ifPresent(prev -> json.field("prev_actor_id", prev.actorId().value())
        .field("prev_sequence", prev.sequence().value()));
    json.field("timestamp", block.timestamp());
    block.receivedAt().ifPresent(at -> json.field("received_at", at));
    return json.field("data", Base64.getEncoder().encodeToString(block.data().toByteArray()))
        .end();
  }

  /** {@code {"feed_id":..,"actor_id":..,"sequence":..}}. */
  static String of(BlockKey key) {
    return Json.object()
        .field("feed_id", key.feedId().value())
        .field("actor_id", key.actorId().value())
        .field("sequence", key.sequence().value())
        .end();
  }
}
