package dev.feedstore.client.internal;

import dev.feedstore.client.Refusal;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.sync.AuthorityException;
import io.grpc.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * What the authority refuses in one session, and when each refusal is tried again: after {@code
 * retry} (a slow schedule: the authority answered, so retrying at once would be refused again), or
 * as soon as the session's credentials change. Not thread-safe: only the session's thread uses it.
 */
final class Refusals {
  private record Key(Optional<SpaceId> space, Refusal.Held held) {}

  private record Entry(Refusal refusal, long retryAtNanos, Object credentials) {}

  private final Map<Key, Entry> entries = new LinkedHashMap<>();
  private final long retryNanos;
  private final Supplier<?> credentials;
  private final LongSupplier nanoTime;

  /**
   * @param retry how long a refusal holds before the operation is tried again
   * @param credentials what identifies the credentials calls carry now (compared with {@code equals})
   */
  Refusals(Duration retry, Supplier<?> credentials, LongSupplier nanoTime) {
    this.retryNanos = retry.toNanos();
    this.credentials = credentials;
    this.nanoTime = nanoTime;
  }

  /** True while a refusal of {@code held} in {@code space} stands; false once it is due for a retry. */
  boolean holds(Optional<SpaceId> space, Refusal.Held held) {
    Key key = new Key(space, held);
    Entry entry = entries.get(key);
    if (entry == null) {
      return false;
    }
    if (nanoTime.getAsLong() - entry.retryAtNanos() >= 0 || !Objects.equals(entry.credentials(), credentials.get())) {
      entries.remove(key);
      return false;
    }
    return true;
  }

  /** True when a refusal of {@code held} in {@code space} was recorded, due for a retry or not. */
  boolean recorded(Optional<SpaceId> space, Refusal.Held held) {
    return entries.containsKey(new Key(space, held));
  }

  /**
   * Records that the authority refused {@code held} in {@code space} with {@code failure} (whose
   * cause carries the status).
   *
   * @return the refusal, if it is new or says something else than the one before (worth logging)
   */
  Optional<Refusal> refuse(Optional<SpaceId> space, Refusal.Held held, AuthorityException failure) {
    Status status = Status.fromThrowable(failure.getCause() != null ? failure.getCause() : failure);
    String description = status.getDescription() != null ? status.getDescription() : failure.getMessage();
    Refusal refusal = new Refusal(space, held, Refusal.Code.valueOf(status.getCode().name()), description);
    Entry previous = entries.put(new Key(space, held),
        new Entry(refusal, nanoTime.getAsLong() + retryNanos, credentials.get()));
    return previous != null && previous.refusal().equals(refusal) ? Optional.empty() : Optional.of(refusal);
  }

  /** The operation went through: its refusal, if any, is over. */
  void cleared(Optional<SpaceId> space, Refusal.Held held) {
    entries.remove(new Key(space, held));
  }

  /** Every refusal of {@code space} is to be tried again at once (its policies changed). */
  void retrySpace(SpaceId space) {
    entries.keySet().removeIf(key -> key.space().equals(Optional.of(space)));
  }

  /** Every refusal is to be tried again at once (the session reconnected). */
  void retryAll() {
    entries.clear();
  }

  /** The refusals recorded, oldest first. */
  List<Refusal> current() {
    List<Refusal> result = new ArrayList<>();
    entries.values().forEach(entry -> result.add(entry.refusal()));
    return result;
  }
}
