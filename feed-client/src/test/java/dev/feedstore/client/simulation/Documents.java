package dev.feedstore.client.simulation;

/**
 * The content of a simulated block: a JSON document made from the block's unique data string, the
 * same on every run. Most are versions of one of a few documents ({@code /id}, so documents have
 * versions in several feeds and on several replicas), with a tag, a number and now and then a
 * tombstone; one in thirteen is not JSON at all (the data string itself). The data string stays in
 * the content ({@code /v}), so the content is as unique as the data. Stateless.
 */
final class Documents {
  /** How many documents the {@code /id}s name. */
  static final int IDS = 6;

  private Documents() {}

  /** The content of the block whose data string is {@code data}. */
  static String of(String data) {
    int hash = data.hashCode();
    if (Math.floorMod(hash >> 11, 13) == 0) {
      return data;
    }
    return "{\"id\":" + Math.floorMod(hash, IDS) + ",\"v\":\"" + data + "\",\"tag\":\"" + "abc".charAt(Math.floorMod(hash >> 3, 3))
        + "\",\"n\":" + Math.floorMod(hash >> 5, 100) + ",\"gone\":" + (Math.floorMod(hash >> 8, 7) == 0) + "}";
  }

  /** The content of a block of about {@code bytes} bytes whose data string is {@code data}. */
  static String of(String data, int bytes) {
    String document = of(data);
    String head = document.startsWith("{") ? document.substring(0, document.length() - 1) + ",\"pad\":\"" : document + "|";
    String tail = document.startsWith("{") ? "\"}" : "";
    return head + "x".repeat(Math.max(0, bytes - head.length() - tail.length())) + tail;
  }
}
