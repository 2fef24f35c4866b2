package dev.feedstore.server.internal.spaces;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * What a transport last built for batches of live blocks that end at one tail entry (or for one
 * shared page), kept with that entry's {@link Encodings}: a Watch frame, the text of Server-Sent
 * Events. Streams of a space that send the same batch with the same event fields (the common case:
 * every caught-up stream of the whole space, after a commit) then send one encoding built once,
 * instead of each building its own. The event fields are what the encoding holds besides the blocks
 * (a Watch's request id and head; nothing for a space's events; a stream's cursor), compared by
 * {@code equals}; the blocks by identity. A few slots, chosen by the batch's first position, so that
 * streams at two different points do not take turns evicting each other (for a page, by the fields). Thread-safe and lock-free:
 * racing streams may each build, and all build equal values.
 *
 * @param <T> what the transport builds
 */
public final class SharedBatches<T> {
  private static final int SLOTS = 4;

  /** What was built, and from what; the entries are compared by identity. */
  private record Built<T>(Object fields, List<TailEntry> entries, T value) {
    boolean matches(Object otherFields, List<TailEntry> otherEntries) {
      if (entries.size() != otherEntries.size() || !fields.equals(otherFields)) {
        return false;
      }
      for (int i = 0; i < entries.size(); i++) {
        if (entries.get(i) != otherEntries.get(i)) {
          return false;
        }
      }
      return true;
    }
  }

  private final AtomicReferenceArray<Built<T>> slots = new AtomicReferenceArray<>(SLOTS);

  /**
   * The encoding of the live blocks {@code entries} (not empty) with the event fields {@code fields},
   * shared by the streams that send the same: kept, of kind {@code kind}, with the last entry's
   * encodings (the batch ends there).
   */
  public static <T> T live(Encodings.Kind<SharedBatches<T>> kind, Object fields, List<TailEntry> entries,
      Supplier<T> build) {
    return entries.get(entries.size() - 1).encodings().get(kind, SharedBatches::new).get(fields, entries, build);
  }

  /** The encoding of a shared page's blocks with the event fields {@code fields}: kept, of kind {@code kind}, with the page. */
  public static <T> T page(Encodings.Kind<SharedBatches<T>> kind, Object fields, Encodings page, Supplier<T> build) {
    return page.get(kind, SharedBatches::new).get(fields, List.of(), build);
  }

  /**
   * The encoding of {@code entries} with {@code fields}: the one built before when it matches, else
   * what {@code build} makes, kept for the next stream. {@code entries} are the batch's blocks when
   * these encodings belong to the tail entry the batch ends at, or empty when they belong to one page
   * ({@code SharedPages}), whose blocks are always the same.
   */
  T get(Object fields, List<TailEntry> entries, Supplier<T> build) {
    Objects.requireNonNull(fields, "fields");
    int slot = (int) ((entries.isEmpty() ? fields.hashCode() : entries.get(0).position()) & (SLOTS - 1));
    Built<T> last = slots.get(slot);
    if (last != null && last.matches(fields, entries)) {
      return last.value();
    }
    T value = build.get();
    slots.set(slot, new Built<>(fields, List.copyOf(entries), value));
    return value;
  }
}
