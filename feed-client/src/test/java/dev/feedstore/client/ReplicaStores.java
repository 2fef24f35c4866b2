package dev.feedstore.client;

import dev.feedstore.core.store.FeedStore;
import java.util.function.UnaryOperator;

/** Reaches the store under a replica from tests in other packages (the simulation): wraps it. */
public final class ReplicaStores {
  private ReplicaStores() {}

  /** {@code builder}, with every transaction of the replica going through what {@code wrapper} makes. */
  public static Replica.Builder wrapped(Replica.Builder builder, UnaryOperator<FeedStore> wrapper) {
    return builder.wrapStore(wrapper);
  }
}
