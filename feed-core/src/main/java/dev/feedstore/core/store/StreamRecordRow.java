package dev.feedstore.core.store;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.SpaceId;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A {@link StreamRecord} as the flat values a store keeps in one row, in one order that every store
 * shares, and back: id, space, name, generation, feed, content type, created, TTL, expiry, touched,
 * fork source, base position, fork sub-offset, closed position, the closing producer's id, epoch
 * and sequence, {@code Stream-Seq}, state. Absent values are null; whole numbers are {@link Number}s
 * of any width (a store's driver picks one); the state is its name in lower case. Stateless.
 */
public final class StreamRecordRow {
  /** How many values a whole row has. */
  public static final int WIDTH = 19;

  private StreamRecordRow() {}

  /** The record of a whole row's values, in the order of this class. */
  public static StreamRecord record(Object[] row) {
    if (row.length != WIDTH) {
      throw new IllegalArgumentException("a stream record's row has " + WIDTH + " values, not " + row.length);
    }
    Optional<ProducerMark> closer = row[14] == null ? Optional.empty()
        : Optional.of(new ProducerMark((String) row[14], whole(row[15]), whole(row[16])));
    return new StreamRecord(whole(row[0]), new SpaceId((String) row[1]), (String) row[2], whole(row[3]),
        new FeedId((String) row[4]), (String) row[5], whole(row[6]), optional(row[7]), optional(row[8]),
        whole(row[9]), optional(row[10]), whole(row[11]), whole(row[12]), optional(row[13]), closer,
        Optional.ofNullable((String) row[17]), StreamRecord.State.valueOf(((String) row[18]).toUpperCase(Locale.ROOT)));
  }

  /** Every value of the record's row but its id (which the store assigns), in the order of this class. */
  public static Object[] withoutId(StreamRecord r) {
    return new Object[] {r.spaceId().value(), r.name(), r.generation(), r.feedId().value(), r.contentType(),
        r.createdAtMillis(), boxed(r.ttlSeconds()), boxed(r.expiresAtMillis()), r.touchedAtMillis(), boxed(r.forkOf()),
        r.basePosition(), r.forkSubOffset(), boxed(r.closedPosition()),
        r.closedBy().map(ProducerMark::producerId).orElse(null), r.closedBy().map(ProducerMark::epoch).orElse(null),
        r.closedBy().map(ProducerMark::seq).orElse(null), r.streamSeq().orElse(null), state(r.state())};
  }

  /**
   * The values {@link StreamCatalog#update} writes, then the id: touched, closed position, the
   * closing producer's id, epoch and sequence, {@code Stream-Seq}, state, id.
   */
  public static Object[] changes(StreamRecord r) {
    return new Object[] {r.touchedAtMillis(), boxed(r.closedPosition()),
        r.closedBy().map(ProducerMark::producerId).orElse(null), r.closedBy().map(ProducerMark::epoch).orElse(null),
        r.closedBy().map(ProducerMark::seq).orElse(null), r.streamSeq().orElse(null), state(r.state()), r.id()};
  }

  private static long whole(Object value) {
    return ((Number) value).longValue();
  }

  private static OptionalLong optional(Object value) {
    return value == null ? OptionalLong.empty() : OptionalLong.of(whole(value));
  }

  private static Long boxed(OptionalLong value) {
    return value.isPresent() ? value.getAsLong() : null;
  }

  private static String state(StreamRecord.State state) {
    return state.name().toLowerCase(Locale.ROOT);
  }
}
