package dev.feedstore.server.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Gathers the appends that arrive while a group is being committed into the next group. There is no
 * timer: an append that finds no group in flight is committed at once, by its own thread, as a
 * group of one, so a lone writer waits for nothing but its own commit. Appends that arrive
 * meanwhile wait in arrival order; when the group in flight is done, the oldest waiting append's
 * thread takes as many waiting appends as fit in {@code append-group-blocks} (the first one always
 * fits) and commits them together. Each caller returns once its own append is settled.
 *
 * <p>One group is in flight at a time, so groups commit (and are published to the live tails) in
 * the order they were formed.
 *
 * <p>Thread-safe. {@link #append} blocks until the append is settled, and is not interruptible.
 */
final class AppendQueue {
  /** Commits a formed group. */
  interface Committer {
    /**
     * Settles every append of the group (may throw only what it could not settle) and returns what
     * to run once the group's callers are released (signalling watchers).
     */
    Runnable commit(List<PendingAppend> group);
  }

  /** A caller waiting in the queue. Guarded by {@link #lock}. */
  private static final class Waiter {
    final PendingAppend append;
    final Condition wake;
    boolean lead;
    boolean done;

    Waiter(PendingAppend append, Condition wake) {
      this.append = append;
      this.wake = wake;
    }
  }

  private final Committer committer;
  private final int groupBlocks;
  private final ReentrantLock lock = new ReentrantLock();
  /** Guarded by lock: the appends waiting for the next group, oldest first. */
  private final ArrayDeque<Waiter> waiting = new ArrayDeque<>();
  /** Guarded by lock: whether a group is being committed (then appends wait). */
  private boolean committing;
  /** Guarded by lock: groups formed so far, and the appends they held. */
  private long groups;
  private long groupedAppends;

  /** @param groupBlocks the most blocks a group gathers from waiting appends ({@code append-group-blocks}) */
  AppendQueue(Committer committer, int groupBlocks) {
    this.committer = committer;
    this.groupBlocks = groupBlocks;
  }

  /** How many appends wait for the next group now. */
  int waiting() {
    lock.lock();
    try {
      return waiting.size();
    } finally {
      lock.unlock();
    }
  }

  /** Groups formed so far (a lone append is a group of one). */
  long groups() {
    lock.lock();
    try {
      return groups;
    } finally {
      lock.unlock();
    }
  }

  /** Appends taken into groups so far; divided by {@link #groups}, the mean size of a group. */
  long groupedAppends() {
    lock.lock();
    try {
      return groupedAppends;
    } finally {
      lock.unlock();
    }
  }

  /** Commits the append alone or in a group, and returns once it is settled. */
  void append(PendingAppend append) {
    Waiter self = new Waiter(append, lock.newCondition());
    List<Waiter> group;
    lock.lock();
    try {
      if (committing) {
        waiting.add(self);
        while (!self.done && !self.lead) {
          self.wake.awaitUninterruptibly();
        }
        if (self.done) {
          return;
        }
      } else {
        committing = true;
      }
      group = formGroup(self);
    } finally {
      lock.unlock();
    }
    Runnable after = null;
    try {
      after = commit(group);
    } finally {
      handOver(group);
    }
    after.run();
  }

  /** The leader and the oldest waiting appends after it, within the group's block budget. Needs the lock. */
  private List<Waiter> formGroup(Waiter leader) {
    List<Waiter> group = new ArrayList<>();
    group.add(leader);
    long blocks = leader.append.blocks().size();
    while (!waiting.isEmpty() && blocks + waiting.peek().append.blocks().size() <= groupBlocks) {
      Waiter next = waiting.poll();
      blocks += next.append.blocks().size();
      group.add(next);
    }
    groups++;
    groupedAppends += group.size();
    return group;
  }

  private Runnable commit(List<Waiter> group) {
    List<PendingAppend> appends = new ArrayList<>(group.size());
    group.forEach(waiter -> appends.add(waiter.append));
    try {
      return committer.commit(appends);
    } catch (RuntimeException | Error e) {
      RuntimeException failure = e instanceof RuntimeException runtime ? runtime
          : new IllegalStateException("committing a group of appends failed", e);
      for (PendingAppend append : appends) {
        if (!append.settled()) {
          append.failed(failure);
        }
      }
      if (e instanceof Error error) {
        throw error;
      }
      return () -> { };
    }
  }

  /** Wakes the group's callers, and makes the oldest waiting append the next group's leader. */
  private void handOver(List<Waiter> group) {
    lock.lock();
    try {
      for (Waiter waiter : group) {
        waiter.done = true;
        waiter.wake.signal();
      }
      Waiter next = waiting.poll();
      if (next == null) {
        committing = false;
      } else {
        next.lead = true;
        next.wake.signal();
      }
    } finally {
      lock.unlock();
    }
  }
}
