package dev.feedstore.server.internal.streams;

import dev.feedstore.core.Block;
import dev.feedstore.server.internal.http.Json;
import dev.feedstore.server.internal.spaces.Encodings;
import dev.feedstore.server.internal.spaces.Page;
import dev.feedstore.server.internal.spaces.SharedBatches;
import dev.feedstore.server.internal.spaces.TailEntry;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * The text of a Durable Stream's Server-Sent Events: each batch of blocks an {@code event: data}
 * (their text line by line, a JSON stream's messages as one array, any other type in base64)
 * followed by an {@code event: control} with {@code streamNextOffset}, {@code streamCursor} and,
 * when nothing follows, {@code upToDate}; a closed stream's last control says {@code streamClosed} instead of a
 * cursor. Every line break of the data starts a new {@code data:} line, so data can never end an
 * event or start another. The events of a live batch or of a page read for the streams behind are
 * encoded once for every stream that sends them ({@link #live}, {@link #page}). Stateless and
 * thread-safe.
 */
final class StreamEvents {
  /** What a stream's events hold besides their blocks: how its data is written, and the control's fields. */
  private record Fields(String data, String cursor, boolean upToDate) {}

  /**
   * The data event of a batch or a page, encoded once for the streams that send it, whatever their
   * cursors: a stream whose cursor differs from the others' adds only its own control event.
   */
  private static final Encodings.Kind<SharedBatches<byte[]>> DATA = new Encodings.Kind<>("Durable Streams data");
  /** A block's text as data lines, kept with its tail entry ({@link #JOINS_NEXT} when it ends in a carriage return). */
  private static final Encodings.Kind<byte[]> TEXT_PART = new Encodings.Kind<>("Durable Streams text of a block");
  /** A block's JSON messages joined by commas as data lines, kept with its tail entry; as for text. */
  private static final Encodings.Kind<byte[]> JSON_PART = new Encodings.Kind<>("Durable Streams JSON of a block");
  private static final byte[] DATA_START = bytes("event: data\ndata:");
  private static final byte[] DATA_END = bytes("\n\n");
  private static final byte[] COMMA = bytes(",");
  /**
   * The part of a block whose last line break may go on in the next block (it ends in a carriage
   * return): the batch is encoded whole. Compared by identity.
   */
  private static final byte[] JOINS_NEXT = new byte[0];
  /** The data and control events of a batch or a page, encoded once for the streams that send them alike. */
  private static final Encodings.Kind<SharedBatches<byte[]>> EVENTS = new Encodings.Kind<>("Durable Streams events");

  private StreamEvents() {}

  /**
   * The data and control events of the live blocks {@code entries} (the stream is up to date after
   * them), encoded by the first stream of the same content that sends them with the same cursor.
   */
  static byte[] live(StreamContent content, List<TailEntry> entries, String cursor) {
    String data = dataKind(content);
    StreamOffset next = new StreamOffset(entries.get(entries.size() - 1).position());
    return SharedBatches.live(EVENTS, new Fields(data, cursor, true), entries,
        () -> liveEvents(content, data, entries, bytes(control(next, cursor, true))));
  }

  /**
   * The data event of live blocks followed by {@code control}: for text and JSON, the data put
   * together from each block's part, encoded once per tail entry, so that readers at different points
   * (their connections busy for different numbers of commits) do not encode the same blocks again;
   * in base64, or where a block's text ends in a carriage return (a line break may go on in the next
   * block), encoded once per batch.
   */
  private static byte[] liveEvents(StreamContent content, String data, List<TailEntry> entries, byte[] control) {
    if (!content.isText()) {
      return join(batchData(content, data, entries), control);
    }
    boolean json = content.isJson();
    List<byte[]> parts = new ArrayList<>(entries.size());
    int length = DATA_START.length + DATA_END.length + control.length + (json ? 2 : 0);
    for (TailEntry entry : entries) {
      byte[] part = json ? entry.encodings().get(JSON_PART, () -> jsonPart(entry.block()))
          : entry.encodings().get(TEXT_PART, () -> textPart(entry.block()));
      if (part == JOINS_NEXT) {
        return join(batchData(content, data, entries), control);
      }
      if (part.length > 0) {
        length += (json && !parts.isEmpty() ? COMMA.length : 0) + part.length;
        parts.add(part);
      }
    }
    ByteBuffer events = ByteBuffer.allocate(length).put(DATA_START);
    if (json) {
      events.put((byte) '[');
    }
    for (int i = 0; i < parts.size(); i++) {
      if (json && i > 0) {
        events.put(COMMA);
      }
      events.put(parts.get(i));
    }
    if (json) {
      events.put((byte) ']');
    }
    return events.put(DATA_END).put(control).array();
  }

  private static byte[] batchData(StreamContent content, String data, List<TailEntry> entries) {
    return SharedBatches.live(DATA, data, entries,
        () -> bytes(data(content, entries.stream().map(TailEntry::block).toList())));
  }

  /** A block's text as data lines, or {@link #JOINS_NEXT} when it ends in a carriage return. */
  private static byte[] textPart(Block block) {
    return part(block.data().toStringUtf8());
  }

  /** A block's JSON messages joined by commas, as data lines, or {@link #JOINS_NEXT} as for text. */
  private static byte[] jsonPart(Block block) {
    return part(String.join(",", StreamJson.ofBlock(block.data().toStringUtf8())));
  }

  private static byte[] part(String payload) {
    return payload.endsWith("\r") ? JOINS_NEXT : bytes(dataLines(new StringBuilder(), payload).toString());
  }

  /** The events of a page read for the streams behind ({@code encodings} is the page's), as {@link #live} encodes a batch. */
  static byte[] page(StreamContent content, Page page, Encodings encodings, String cursor, boolean upToDate) {
    String data = dataKind(content);
    StreamOffset next = new StreamOffset(page.blocks().get(page.blocks().size() - 1).position().value());
    return SharedBatches.page(EVENTS, new Fields(data, cursor, upToDate), encodings, () -> join(SharedBatches.page(
        DATA, data, encodings, () -> bytes(data(content, page.blocks()))), bytes(control(next, cursor, upToDate))));
  }

  /** How {@code content}'s data events are written: JSON, text or base64. */
  private static String dataKind(StreamContent content) {
    return content.isJson() ? "json" : content.isText() ? "text" : "base64";
  }

  /**
   * One data event with the content of {@code blocks} (a batch the server read or was handed at
   * once) and the control event after it, at the last block's offset.
   */
  static String blocks(StreamContent content, List<Block> blocks, String cursor, boolean upToDate) {
    return data(content, blocks)
        + control(new StreamOffset(blocks.get(blocks.size() - 1).position().value()), cursor, upToDate);
  }

  /** One {@code event: data} of the blocks' content. */
  static String data(StreamContent content, List<Block> blocks) {
    String payload;
    if (content.isJson()) {
      List<String> messages = new ArrayList<>();
      for (Block block : blocks) {
        messages.addAll(StreamJson.ofBlock(block.data().toStringUtf8()));
      }
      payload = StreamJson.block(messages);
    } else if (content.isText()) {
      StringBuilder joined = new StringBuilder();
      blocks.forEach(block -> joined.append(block.data().toStringUtf8()));
      payload = joined.toString();
    } else {
      java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
      blocks.forEach(block -> bytes.writeBytes(block.data().toByteArray()));
      payload = Base64.getEncoder().encodeToString(bytes.toByteArray());
    }
    StringBuilder event = new StringBuilder(payload.length() + 32).append("event: data\ndata:");
    return dataLines(event, payload).append("\n\n").toString();
  }

  /** Appends {@code payload} to {@code event}, every line break of it starting a new {@code data:} line. */
  private static StringBuilder dataLines(StringBuilder event, String payload) {
    for (int i = 0; i < payload.length(); i++) {
      char c = payload.charAt(i);
      if (c == '\r' || c == '\n') {
        if (c == '\r' && i + 1 < payload.length() && payload.charAt(i + 1) == '\n') {
          i++; // CRLF is one line break
        }
        event.append("\ndata:");
      } else {
        event.append(c);
      }
    }
    return event;
  }

  /** An {@code event: control}. */
  static String control(StreamOffset next, String cursor, boolean upToDate) {
    Json json = Json.object().field("streamNextOffset", next.toString()).field("streamCursor", cursor);
    if (upToDate) {
      json.field("upToDate", true);
    }
    return "event: control\ndata:" + json.end() + "\n\n";
  }

  /** The last control of a closed stream. */
  static String closed(StreamOffset tail) {
    return "event: control\ndata:" + Json.object().field("streamNextOffset", tail.toString())
        .field("streamClosed", true).field("upToDate", true).end() + "\n\n";
  }

  static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** The encoded {@code data} event followed by the encoded {@code control}. */
  private static byte[] join(byte[] data, byte[] control) {
    byte[] joined = Arrays.copyOf(data, data.length + control.length);
    System.arraycopy(control, 0, joined, data.length, control.length);
    return joined;
  }
}
