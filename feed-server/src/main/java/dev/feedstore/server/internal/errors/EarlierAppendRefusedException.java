package dev.feedstore.server.internal.errors;

import java.util.Collection;
import java.util.List;

/**
 * An append of an {@code AppendStream} that names a feed an earlier append of the same stream was
 * refused for: nothing of it was stored, as its blocks may link to the refused ones. Its sender
 * sends it again on a new stream once it has handled that refusal.
 */
public final class EarlierAppendRefusedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient List<String> feeds;

  /** @param feeds the feeds of this append that an earlier append of the stream was refused for */
  public EarlierAppendRefusedException(Collection<String> feeds) {
    super("an earlier append of this stream to feed" + (feeds.size() == 1 ? " " : "s ") + String.join(", ", feeds)
        + " was refused, so this one was not stored (its blocks may follow the refused ones): send it again on a"
        + " new stream once the refusal is handled", null, false, false);
    this.feeds = List.copyOf(feeds);
  }

  public List<String> feeds() {
    return feeds;
  }
}
