package dev.feedstore.server.internal.http;

import dev.feedstore.core.Block;
import dev.feedstore.server.internal.spaces.Encodings;
import dev.feedstore.server.internal.spaces.TailEntry;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import dev.feedstore.core.Namespace;

/**
 * The text of Server-Sent Events as the event stream writes them ({@code text/event-stream}): a
 * block is an unnamed event whose {@code id} is its position and whose {@code data} is the block's
 * JSON ({@link BlockJson}); other events are named ({@code event: caught-up}); heartbeats are
 * comments. Stateless and thread-safe.
 */
final class SseEvent {
  private SseEvent() {}

  /** {@code id: P\ndata: {...}\n\n}. */
  static String block(Block block, Optional<Namespace> namespace) {
    return "id: " + block.position().value() + "\ndata: " + BlockJson.of(block, namespace) + "\n\n";
  }

  /** {@code event: NAME\ndata: JSON\n\n}. */
  static String named(String name, String json) {
    return "event: " + name + "\ndata: " + json + "\n\n";
  }

  /** A comment line, which clients skip: {@code : TEXT\n\n}. */
  static String comment(String text) {
    return ": " + text + "\n\n";
  }

  /** A live block's event, encoded once for all the streams of its space ({@link TailEntry#encodings}). */
  static final Encodings.Kind<byte[]> SHARED = new Encodings.Kind<>("Server-Sent Event");

  /** The event of {@code entry}, encoded by the first stream that sends it. */
  static byte[] of(TailEntry entry) {
    return entry.encodings().get(SHARED,
        () -> block(entry.block(), entry.namespace()).getBytes(StandardCharsets.UTF_8));
  }
}
