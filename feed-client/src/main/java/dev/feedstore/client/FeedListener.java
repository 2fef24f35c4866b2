package dev.feedstore.client;

/**
 * Listens to feeds of a replica: first their current content, then every change (a local append,
 * pulled blocks, positions assigned or cleared by sync), as the changed blocks ({@link
 * FeedUpdate#changes()}). Updates of one replica are delivered one at a time, in the order of the
 * changes, on the replica's listener thread; a burst of changes may arrive as one update showing
 * the latest state of the blocks. Implementations must return quickly and must not block.
 */
@FunctionalInterface
public interface FeedListener {
  /** Receives one update of a listened feed, as the interface says: on the listener thread, quickly. */
  void onUpdate(FeedUpdate update);
}
