package dev.feedstore.server.internal.streams;

import dev.feedstore.server.internal.http.JsonScanner;
import java.util.ArrayList;
import java.util.List;

/**
 * The messages of a JSON-mode stream. An append's body is one JSON value (RFC 8259, checked
 * strictly); an array is flattened one level, each element a message, anything else is one
 * message. A stream's block holds its append's messages as a JSON array ({@link #block}), so a read
 * joins the blocks' elements into one array and a replica sees valid JSON in every block. Messages
 * keep their text as sent: nothing is re-encoded ({@link JsonScanner} checks it). Stateless and
 * thread-safe.
 */
final class StreamJson {
  private StreamJson() {}

  /**
   * The messages of an append body.
   *
   * @throws StreamException (400) if the body is not one JSON value, naming where it goes wrong
   */
  static List<String> messages(String body) {
    JsonScanner json = new JsonScanner(body);
    List<String> messages = new ArrayList<>();
    try {
      if (json.atArray()) {
        json.beginArray();
        for (boolean first = true; json.hasNext(first); first = false) {
          messages.add(body.substring(json.value(), json.at()));
        }
      } else {
        messages.add(body.substring(json.value(), json.at()));
      }
      json.end();
    } catch (JsonScanner.Malformed e) {
      throw StreamException.badRequest("the body of a JSON stream must be one JSON value: " + e.getMessage());
    }
    return messages;
  }

  /** The block that holds {@code messages}: a JSON array of them. */
  static String block(List<String> messages) {
    return "[" + String.join(",", messages) + "]";
  }

  /**
   * The messages of a stored block: the elements of its array, or the block whole when it is some
   * other JSON value (a replica may write one), or nothing when it is not JSON (then a reader gets
   * valid JSON still, and the block stays in the feed for whoever wrote it).
   */
  static List<String> ofBlock(String block) {
    try {
      return messages(block);
    } catch (StreamException e) {
      return List.of();
    }
  }
}
