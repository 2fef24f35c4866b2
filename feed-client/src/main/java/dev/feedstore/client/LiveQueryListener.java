package dev.feedstore.client;

/**
 * Follows a live query of a replica ({@link Replica#liveQuery}): told its result, then only the
 * changes ({@link LiveQueryEvent}). Events of one replica are delivered one at a time, in commit
 * order, on the replica's listener thread, as {@link FeedListener}'s are. Implementations must
 * return quickly and must not block; one that throws is logged and stays registered.
 */
@FunctionalInterface
public interface LiveQueryListener {
  /** Receives the query's next event, as the interface says: quickly, without blocking. */
  void onEvent(LiveQueryEvent event);
}
