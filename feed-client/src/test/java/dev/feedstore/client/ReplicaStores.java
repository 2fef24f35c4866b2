package dev.feedstore.client;

import dev.feedstore.core.store.FeedStore;
import java.util.function.UnaryOperator;

/**
 * Reaches into a replica from tests in other packages (the simulation): wraps its store, breaks its
 * live queries.
 */
public final class ReplicaStores {
  private ReplicaStores() {}

  /** {@code builder}, with every transaction of the replica going through what {@code wrapper} makes. */
  public static Replica.Builder wrapped(Replica.Builder builder, UnaryOperator<FeedStore> wrapper) {
    return builder.wrapStore(wrapper);
  }

  /** {@code builder}, with live queries broken on purpose ({@link Replica.Builder#breakLiveQueries}). */
  public static Replica.Builder withBrokenLiveQueries(Replica.Builder builder) {
    return builder.breakLiveQueries();
  }
}
