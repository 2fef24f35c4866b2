package dev.feedstore.server.internal.queries;

import dev.feedstore.core.query.result.ChangeBatch;
import dev.feedstore.server.internal.spaces.Encodings;

/**
 * The most recent change batches of one shared query, numbered consecutively, for the subscribers
 * that have not sent them yet: bounded by the rows they hold (the newest batch is kept whatever its
 * size), the oldest dropped first. A subscriber whose next batch was dropped is behind and catches
 * up from storage. Not thread-safe: its {@link SharedQuery} guards it.
 */
final class RecentChanges {
  /** What follows a batch number: the batch, nothing yet, or a batch no longer kept. */
  record Next(QueryBatch batch, boolean behind) {
    static final Next NOTHING = new Next(null, false);
    static final Next BEHIND = new Next(null, true);
  }

  private final long maxRows;
  private QueryBatch[] ring = new QueryBatch[16];
  private int head;
  private int size;
  private long rows;
  /** The number of the next batch added. */
  private long nextSeq;

  /** @param maxRows the rows the batches kept may hold together ({@code live-query-recent-rows}) */
  RecentChanges(long maxRows) {
    this.maxRows = maxRows;
  }

  /** The number the next batch will have: a subscriber that has sent everything waits for it. */
  long nextSeq() {
    return nextSeq;
  }

  /** Adds the next batch, stamped {@code stamp}, and drops the oldest ones past the bound. */
  QueryBatch add(ResumeToken stamp, ChangeBatch changes) {
    QueryBatch batch = new QueryBatch(nextSeq++, stamp, changes, new Encodings());
    if (size == ring.length) {
      QueryBatch[] larger = new QueryBatch[ring.length * 2];
      for (int i = 0; i < size; i++) {
        larger[i] = ring[(head + i) % ring.length];
      }
      ring = larger;
      head = 0;
    }
    ring[(head + size) % ring.length] = batch;
    size++;
    rows += batch.rows();
    while (size > 1 && rows > maxRows) {
      rows -= ring[head].rows();
      ring[head] = null;
      head = (head + 1) % ring.length;
      size--;
    }
    return batch;
  }

  /** The batch numbered {@code seq}. */
  Next at(long seq) {
    if (seq >= nextSeq) {
      return Next.NOTHING;
    }
    QueryBatch batch = batch(seq);
    return batch == null ? Next.BEHIND : new Next(batch, false);
  }

  /** The batch numbered {@code seq} when it is kept, else null. */
  QueryBatch batch(long seq) {
    long first = nextSeq - size;
    if (seq < first || seq >= nextSeq) {
      return null;
    }
    return ring[(int) ((head + (seq - first)) % ring.length)];
  }

  /** Drops every batch kept (the result was rebuilt): whoever needed one is behind. */
  void clear() {
    ring = new QueryBatch[16];
    head = 0;
    size = 0;
    rows = 0;
  }
}
