package dev.feedstore.server.internal.http;

import dev.feedstore.core.Block;
import dev.feedstore.core.Namespace;
import dev.feedstore.server.internal.spaces.Encodings;
import dev.feedstore.server.internal.spaces.Page;
import dev.feedstore.server.internal.spaces.SharedBatches;
import dev.feedstore.server.internal.spaces.TailEntry;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * The text of Server-Sent Events as the event stream writes them ({@code text/event-stream}): a
 * block is an unnamed event whose {@code id} is its position and whose {@code data} is the block's
 * JSON ({@link BlockJson}); other events are named ({@code event: caught-up}); heartbeats are
 * comments. A space's block events hold nothing of the stream they are sent on, so each is encoded
 * once for every stream ({@link #of}), and so is each batch of them ({@link #live}) and each page
 * read for the streams behind ({@link #page(Page, Encodings)}). Stateless and thread-safe.
 */
final class SseEvent {
  /** A live block's event, encoded once for all the streams of its space ({@link TailEntry#encodings}). */
  private static final Encodings.Kind<byte[]> BLOCK = new Encodings.Kind<>("Server-Sent Event");
  /** The events of a batch of blocks, encoded once for all the streams that send that batch. */
  private static final Encodings.Kind<SharedBatches<byte[]>> BATCH = new Encodings.Kind<>("Server-Sent Events");
  /** A space's block events carry no field of their stream. */
  private static final String NO_FIELDS = "";

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

  /** The event of {@code entry}, encoded by the first stream that sends it. */
  static byte[] of(TailEntry entry) {
    return entry.encodings().get(BLOCK, () -> bytes(block(entry.block(), entry.namespace())));
  }

  /** The events of the live blocks {@code entries}, encoded by the first stream that sends this batch. */
  static byte[] live(List<TailEntry> entries) {
    return SharedBatches.live(BATCH, NO_FIELDS, entries, () -> {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      entries.forEach(entry -> out.writeBytes(of(entry)));
      return out.toByteArray();
    });
  }

  /** The events of a page's blocks. */
  static byte[] page(Page page) {
    StringBuilder text = new StringBuilder();
    page.blocks().forEach(block -> text.append(block(block, Optional.ofNullable(page.namespaces().get(block.feedId())))));
    return bytes(text.toString());
  }

  /** {@link #page(Page)} of a page other streams send too, encoded by the first of them ({@code encodings} is the page's). */
  static byte[] page(Page page, Encodings encodings) {
    return SharedBatches.page(BATCH, NO_FIELDS, encodings, () -> page(page));
  }

  static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
