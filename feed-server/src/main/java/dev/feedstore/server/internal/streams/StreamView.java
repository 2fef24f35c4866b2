package dev.feedstore.server.internal.streams;

import dev.feedstore.core.Block;
import dev.feedstore.core.store.StreamRecord;
import java.util.List;

/**
 * What one read of a stream saw, from one snapshot of the store.
 *
 * @param record the stream's record
 * @param tail the stream's tail offset: the position of its last block (or where it began)
 * @param blocks the stream's blocks after the offset read from, in order (empty for a look at the tail)
 * @param next the offset to read from next
 * @param upToDate true when nothing of the stream follows {@code blocks}
 * @param floor the space's floor in the read's snapshot: the stream holds no block between the
 *     offset read from and it (retention removed every block up to it, and a read that would have
 *     skipped some of the stream's was refused), so a live read may follow from there
 */
record StreamView(StreamRecord record, StreamOffset tail, List<Block> blocks, StreamOffset next, boolean upToDate,
    long floor) {
  StreamView {
    blocks = List.copyOf(blocks);
  }

  /** True when the stream is closed and this view reaches its end. */
  boolean closedAtTail() {
    return record.isClosed() && upToDate;
  }

  StreamContent content() {
    return new StreamContent(record.contentType());
  }
}
