package dev.feedstore.server.internal.streams;

import dev.feedstore.core.Block;
import dev.feedstore.server.internal.http.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The text of a Durable Stream's Server-Sent Events: each batch of blocks an {@code event: data}
 * (their text line by line, a JSON stream's messages as one array, any other type in base64)
 * followed by an {@code event: control} with {@code streamNextOffset}, {@code streamCursor} and,
 * when nothing follows, {@code upToDate}; a closed stream's last control says {@code streamClosed} instead of a
 * cursor. Every line break of the data starts a new {@code data:} line, so data can never end an
 * event or start another. Stateless.
 */
final class StreamEvents {
  private StreamEvents() {}

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
    StringBuilder event = new StringBuilder("event: data\n");
    for (String line : payload.split("\r\n|\r|\n", -1)) {
      event.append("data:").append(line).append('\n');
    }
    return event.append('\n').toString();
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
}
