package dev.feedstore.client.simulation;

import dev.feedstore.core.store.StorageFaultException;

/** One operation of a schedule. Replicas and feeds are named by index; data strings are unique. */
sealed interface Op {
  record Append(int replica, int feed, String data) implements Op {}

  record Connect(int replica) implements Op {}

  record Disconnect(int replica) implements Op {}

  record Push(int replica, Fault fault) implements Op {}

  record Pull(int replica, Fault fault) implements Op {}

  /** Copies the authority's file, for a later rollback. */
  record SnapshotAuthority() implements Op {}

  /** Restores the authority from the {@code index}-th snapshot (modulo how many exist). */
  record RollbackAuthority(int index) implements Op {}

  /** Replaces the authority's file with a new empty one. */
  record SwapAuthority() implements Op {}

  /** Stops the authority abruptly and starts it again on the same file. */
  record CrashAuthority() implements Op {}

  record StopAuthority() implements Op {}

  record StartAuthority() implements Op {}

  /** Closes the replica and opens it again from its file. */
  record RestartReplica(int replica) implements Op {}

  /** Copies the replica's file aside. */
  record BackupReplica(int replica) implements Op {}

  /** Replaces the replica's file with its {@code index}-th backup (modulo how many exist). */
  record RestoreReplica(int replica, int index) implements Op {}

  /**
   * The store of the authority (if {@code authority}) or of the replica fails every commit with
   * {@code kind} (a full disk, an I/O error) while the replica appends {@code data} to {@code feed},
   * then pushes and pulls once if connected; then the fault is gone.
   */
  record StorageFault(int replica, boolean authority, StorageFaultException.Kind kind, int feed, String data)
      implements Op {}

  /**
   * Appends a block of {@code bytes} bytes (its data starts with the unique {@code data}), which the
   * authority's limits of the moment may refuse.
   */
  record AppendLarge(int replica, int feed, String data, int bytes) implements Op {}

  /**
   * Restarts the authority with the {@code choice}-th limits of {@link World#LIMITS} (modulo how
   * many there are); with {@code announce} the replicas ask it for them, otherwise they learn them
   * from its refusals.
   */
  record SetAuthorityLimits(int choice, boolean announce) implements Op {}

  /**
   * Compacts the authority's history up to its highest position less {@code keep} (as far as the
   * durable subscriptions' holds allow).
   */
  record Compact(int keep) implements Op {}

  /** The {@code consumer}-th durable consumer reads a page from its acknowledged position and acknowledges it. */
  record Consume(int consumer) implements Op {}

  /** Changes how the replica replicates a feed (or the namespace of feeds 0 and 1). */
  record SetPolicy(int replica, int feed, PolicyKind policy, long from) implements Op {}

  /** The policies a schedule can choose. */
  enum PolicyKind {
    NONE,
    FULL,
    LATEST,
    FROM,
    NAMESPACE_ON,
    NAMESPACE_OFF
  }
}
