package dev.feedstore.server.internal.grpc;

import dev.feedstore.server.internal.live.LiveSink;
import dev.feedstore.server.internal.spaces.Encodings;
import dev.feedstore.server.internal.spaces.TailEntry;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * The Watch frames last built for batches of live blocks that end at one tail entry, so that the
 * streams of a space which send the same batch with the same event fields (the common case: every
 * stream of the whole space, caught up, after a commit) send one frame built once instead of each
 * building its own. A few slots, chosen by the batch's first position, so that streams at two
 * different points do not take turns evicting each other. Thread-safe and lock-free: racing streams
 * may each build a frame, and all build equal bytes.
 */
final class SharedFrames {
  /** The frames of a tail entry or a shared page ({@link Encodings}). */
  static final Encodings.Kind<SharedFrames> SHARED = new Encodings.Kind<>("Watch frames");

  private static final int SLOTS = 4;

  /** A frame and what it was built from; the entries are compared by identity. */
  private record Built(String requestId, LiveSink.Head head, List<TailEntry> entries, WatchFrame frame) {
    boolean matches(String otherRequestId, LiveSink.Head otherHead, List<TailEntry> otherEntries) {
      if (entries.size() != otherEntries.size() || !requestId.equals(otherRequestId) || !head.equals(otherHead)) {
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

  private final AtomicReferenceArray<Built> slots = new AtomicReferenceArray<>(SLOTS);

  /**
   * The frame of {@code entries} with the event fields of {@code requestId} and {@code head}: the
   * one built before when it matches, else what {@code build} makes, kept for the next stream.
   * {@code entries} are the batch's blocks when these frames belong to the tail entry the batch ends
   * at, or empty when they belong to one page ({@code SharedPages}), whose blocks are always the same.
   */
  WatchFrame frame(String requestId, LiveSink.Head head, List<TailEntry> entries, Supplier<WatchFrame> build) {
    int slot = entries.isEmpty() ? 0 : (int) (entries.get(0).position() & (SLOTS - 1));
    Built last = slots.get(slot);
    if (last != null && last.matches(requestId, head, entries)) {
      return last.frame();
    }
    WatchFrame frame = build.get();
    slots.set(slot, new Built(requestId, head, List.copyOf(entries), frame));
    return frame;
  }
}
