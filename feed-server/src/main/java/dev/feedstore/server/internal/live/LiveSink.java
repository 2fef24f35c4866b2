package dev.feedstore.server.internal.live;

import dev.feedstore.core.BlockKey;
import dev.feedstore.core.ServerToken;
import dev.feedstore.server.internal.spaces.Encodings;
import dev.feedstore.server.internal.spaces.Page;
import dev.feedstore.server.internal.spaces.TailEntry;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Where a {@link LiveFollower} sends its events: one stream of one transport (a gRPC Watch call,
 * a Server-Sent Events response). The follower decides what to send and when; the sink only
 * encodes and writes, and says whether its transport takes more now ({@link #isReady}), which is
 * how a slow reader bounds what the server holds for it.
 *
 * <p>The follower calls the event methods from its serialized drain, one at a time, each only
 * after {@link #isReady} said true; {@link #isReady} may be called from that drain only. {@link
 * #end} is the last call.
 */
public interface LiveSink extends StreamSink {
  /**
   * What every event carries besides its own content.
   *
   * @param token the space's server token
   * @param maxPosition the highest position of the space the follower knows of
   * @param cursorBlock the key of the block at the stream's cursor (first event only)
   * @param cursorChain the history chain at the cursor (first event only)
   * @param lastChain the history chain at the event's last block (block events only)
   * @param floor the space's floor as the follower last learned it
   * @param startCursor the cursor the stream's start time resolved to (first event only, and only
   *     when the stream started at a time)
   */
  record Head(ServerToken token, long maxPosition, Optional<BlockKey> cursorBlock, OptionalLong cursorChain,
      OptionalLong lastChain, long floor, OptionalLong startCursor) {}

  /** Blocks read from storage (history, or live blocks the shared tail no longer held): not empty. */
  void history(Head head, Page page);

  /**
   * {@link #history}, of a page other streams send too: a sink may build its event once for all of
   * them in {@code encodings}. By default, as {@link #history}.
   */
  default void sharedHistory(Head head, Page page, Encodings encodings) {
    history(head, page);
  }

  /** Live blocks of the stream's scope from the shared tail, each encoded once for every stream: not empty. */
  void live(Head head, List<TailEntry> entries);

  /** Everything up to {@code head.maxPosition()} has been sent: live from here. */
  void caughtUp(Head head);

  /** Nothing was sent for a heartbeat interval. */
  void heartbeat(Head head);
}
