package dev.feedstore.server.internal.errors;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.SpaceId;
import java.util.List;
import java.util.Map;

/**
 * An append brought new blocks to the feeds of Durable Streams that are over (closed, deleted or
 * expired), which take none; nothing of the append was written. It names each such feed and why.
 * The append's other blocks may be appended again without them.
 */
public final class StreamClosedException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  /** The reason the error names, the same in a gRPC status's {@code ErrorInfo} and an HTTP answer. */
  public static final String REASON = "STREAM_CLOSED";
  /** How many feeds the message names; the error's detail lists more ({@link #MAX_DETAILED}). */
  private static final int NAMED = 10;
  /** How many feeds the error's detail lists: enough for any append to learn them in a few tries. */
  public static final int MAX_DETAILED = 100;

  private final SpaceId spaceId;
  private final transient List<FeedId> feeds;

  /** @param ended the feeds, each with why its stream is over, in the order they were met; not empty */
  public StreamClosedException(SpaceId spaceId, Map<FeedId, String> ended) {
    super(message(spaceId, ended), null, false, false);
    this.spaceId = spaceId;
    this.feeds = List.copyOf(ended.keySet());
  }

  private static String message(SpaceId spaceId, Map<FeedId, String> ended) {
    StringBuilder text = new StringBuilder("space '").append(spaceId.value())
        .append("' takes no new blocks in the feed of a stream that is over: ");
    int named = 0;
    for (Map.Entry<FeedId, String> feed : ended.entrySet()) {
      if (named == NAMED) {
        text.append(" and ").append(ended.size() - NAMED).append(" more");
        break;
      }
      text.append(named++ == 0 ? "" : "; ").append("feed ").append(feed.getKey().value()).append(" (")
          .append(feed.getValue()).append(')');
    }
    return text.append("; nothing of the append was written, append the other blocks without these").toString();
  }

  public SpaceId spaceId() {
    return spaceId;
  }

  /** The feeds, in the order they were met. */
  public List<FeedId> feeds() {
    return feeds;
  }
}
