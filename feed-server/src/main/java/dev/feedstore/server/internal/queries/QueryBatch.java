package dev.feedstore.server.internal.queries;

import dev.feedstore.core.query.result.ChangeBatch;
import dev.feedstore.server.internal.spaces.Encodings;
import java.util.Objects;

/**
 * A change batch of a live query as its subscribers receive it: the net change of the query's
 * result over one range of commits, stamped with the token to resume after it, and what each
 * transport encodes of it once for every subscriber that sends it ({@link Encodings}). Immutable
 * but for its encodings, which are thread-safe.
 *
 * @param seq its number among the batches of its query's shared state (consecutive), which a
 *     subscriber follows: a compaction's departures may share a position with a commit's batch; of
 *     batches merged for the subscribers behind by several, the number of the last
 * @param stamp the position the batch brings a subscriber to, with the token and query hash
 * @param changes the rows that entered, were updated (with the row before) and left
 * @param encodings what the transports made of it once
 */
public record QueryBatch(long seq, ResumeToken stamp, ChangeBatch changes, Encodings encodings) {
  public QueryBatch {
    Objects.requireNonNull(stamp, "stamp");
    Objects.requireNonNull(changes, "changes");
    Objects.requireNonNull(encodings, "encodings");
  }

  /** A batch of one subscriber's own, computed from storage: its encodings are shared with no one. */
  static QueryBatch own(ResumeToken stamp, ChangeBatch changes) {
    return new QueryBatch(-1, stamp, changes, new Encodings());
  }

  public long position() {
    return stamp.position();
  }

  /** The rows it holds, an update counting its two. */
  long rows() {
    return changes.entered().size() + 2L * changes.updated().size() + changes.left().size();
  }
}
