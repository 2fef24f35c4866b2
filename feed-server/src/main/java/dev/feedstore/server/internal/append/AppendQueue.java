package dev.feedstore.server.internal.append;

import dev.feedstore.server.internal.errors.ShuttingDownException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Gathers the appends that arrive while a group is being committed into the next group, and
 * commits the groups on an executor of their own ({@code commits}), so the thread that submits an
 * append (a transport's event loop, a request thread) never waits for the store. There is no timer:
 * an append that finds no group in flight starts a commit at once, as a group of one, so a lone
 * writer waits for nothing but its own commit. Appends that arrive meanwhile are queued in arrival
 * order; the commit, once its group is settled, hands the telling of its appends to {@code
 * answers} and takes the oldest queued appends that fit in {@code append-group-blocks} (the first
 * one always fits) as the next group, until the queue is empty. So the next group's transaction
 * does not wait while a hundred callers are answered, and groups are told in the order they
 * committed (one thread tells them). A group of one append, committed while {@code answers} has
 * nothing of earlier groups left to run, is told by the committing thread itself (its watchers are
 * still signalled on {@code answers}): a lone writer's answer then waits for no thread hand-off.
 *
 * <p>One group is in flight at a time, so groups commit (and are published to the live tails) in
 * the order they were formed. Appends submitted once {@code commits} refuses work (the server is
 * stopping) fail with {@link ShuttingDownException}; those queued before it still commit, unless the
 * queue is {@linkplain #close closed} first: then they fail the same way.
 *
 * <p>Thread-safe. {@link #submit} returns at once (with {@code commits} a direct executor, after
 * committing); {@link #append} blocks until the append is settled, and is not interruptible.
 */
public final class AppendQueue {
  /** Commits a formed group. */
  public interface Committer {
    /**
     * Settles every append of the group (may throw only what it could not settle) and returns what
     * to run once the group's appends are told (signalling watchers).
     */
    Runnable commit(List<PendingAppend> group);
  }

  /** An append waiting in the queue, and whom to tell when it is settled. */
  private record Waiter(PendingAppend append, Runnable settled) {}

  private final Committer committer;
  private final int groupBlocks;
  private final Executor commits;
  private final Executor answers;
  private final ReentrantLock lock = new ReentrantLock();
  /** Guarded by lock: the appends waiting for the next group, oldest first. */
  private final ArrayDeque<Waiter> waiting = new ArrayDeque<>();
  /** Guarded by lock: whether groups are being committed or about to be (then appends are queued). */
  private boolean committing;
  /** Guarded by lock: appends are refused ({@link #close}). */
  private boolean closed;
  /** What was handed to {@code answers} and has not ended yet; only the committing thread raises it. */
  private final AtomicInteger telling = new AtomicInteger();
  /** Guarded by lock: groups formed so far, and the appends they held. */
  private long groups;
  private long groupedAppends;

  /** As {@link #AppendQueue(Committer, int, Executor, Executor)}, the appends told on the committing thread. */
  AppendQueue(Committer committer, int groupBlocks, Executor commits) {
    this(committer, groupBlocks, commits, Runnable::run);
  }

  /**
   * @param groupBlocks the most blocks a group gathers from waiting appends ({@code append-group-blocks})
   * @param commits where groups are committed, one run at a time
   * @param answers where a committed group's appends are told, and then what its commit returned
   *     runs, in the order the groups committed (one thread, or the committing thread itself); when it
   *     refuses work, the committing thread tells them
   */
  public AppendQueue(Committer committer, int groupBlocks, Executor commits, Executor answers) {
    this.committer = committer;
    this.groupBlocks = groupBlocks;
    this.commits = commits;
    this.answers = answers;
  }

  /** How many appends wait for the next group now. */
  public int waiting() {
    lock.lock();
    try {
      return waiting.size();
    } finally {
      lock.unlock();
    }
  }

  /** Groups formed so far (a lone append is a group of one). */
  public long groups() {
    lock.lock();
    try {
      return groups;
    } finally {
      lock.unlock();
    }
  }

  /** Appends taken into groups so far; divided by {@link #groups}, the mean size of a group. */
  public long groupedAppends() {
    lock.lock();
    try {
      return groupedAppends;
    } finally {
      lock.unlock();
    }
  }

  /** Commits the append alone or in a group, and returns once it is settled. */
  public void append(PendingAppend append) {
    CountDownLatch settled = new CountDownLatch(1);
    submit(append, settled::countDown);
    boolean interrupted = false;
    while (true) {
      try {
        settled.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Queues the append for the next group, and starts committing groups on {@code commits} if none
   * is in flight; returns at once. {@code settled} runs once the append is settled, on the thread
   * of {@code answers} or the committing one (or on this one, when the append is refused); it must
   * not block, and what it throws is ignored.
   */
  public void submit(PendingAppend append, Runnable settled) {
    Waiter waiter = new Waiter(append, settled);
    boolean open;
    lock.lock();
    try {
      open = !closed;
      if (open) {
        waiting.add(waiter);
        if (committing) {
          return;
        }
        committing = true;
      }
    } finally {
      lock.unlock();
    }
    if (!open) {
      refuse(List.of(waiter));
      return;
    }
    try {
      commits.execute(this::commitWaiting);
    } catch (RejectedExecutionException e) {
      refuseWaiting();
    }
  }

  /** Commits groups of the waiting appends, oldest first, until none waits. */
  private void commitWaiting() {
    boolean handedBack = false;
    try {
      while (true) {
        List<Waiter> group;
        lock.lock();
        try {
          if (waiting.isEmpty()) {
            committing = false;
            handedBack = true;
            return;
          }
          group = formGroup();
        } finally {
          lock.unlock();
        }
        Runnable after = commit(group);
        if (group.size() == 1 && telling.get() == 0) {
          // A lone caller with nothing told before it waiting hears from here, a thread hand-off sooner.
          quietly(group.get(0).settled());
          handOff(after);
          continue;
        }
        handOff(() -> { // after the callers: they hear first, watchers then read the blocks
          for (Waiter waiter : group) {
            quietly(waiter.settled());
          }
          after.run();
        });
      }
    } finally {
      if (!handedBack) {
        // An Error escaped: the next submit commits what is queued.
        lock.lock();
        try {
          committing = false;
        } finally {
          lock.unlock();
        }
      }
    }
  }

  /** Runs {@code step} on {@code answers} (here, when it refuses work), counted in {@link #telling} until it ends. */
  private void handOff(Runnable step) {
    telling.incrementAndGet();
    Runnable counted = () -> {
      try {
        quietly(step);
      } finally {
        telling.decrementAndGet();
      }
    };
    try {
      answers.execute(counted);
    } catch (RejectedExecutionException e) {
      counted.run();
    }
  }

  /**
   * Fails every waiting append, and every one submitted from now on, with {@link
   * ShuttingDownException}; a group being committed completes on its own. For when the owner stops
   * waiting for commits, so that nothing commits after it closed the store. Idempotent.
   */
  public void close() {
    List<Waiter> refused;
    lock.lock();
    try {
      closed = true;
      refused = new ArrayList<>(waiting);
      waiting.clear();
    } finally {
      lock.unlock();
    }
    refuse(refused);
  }

  /** The executor takes no more commits: fails every waiting append, as the server is stopping. */
  private void refuseWaiting() {
    List<Waiter> refused;
    lock.lock();
    try {
      refused = new ArrayList<>(waiting);
      waiting.clear();
      committing = false;
    } finally {
      lock.unlock();
    }
    refuse(refused);
  }

  private static void refuse(List<Waiter> refused) {
    for (Waiter waiter : refused) {
      waiter.append().failed(new ShuttingDownException());
      quietly(waiter.settled());
    }
  }

  /** The oldest waiting appends, within the group's block budget (the first always). Needs the lock. */
  private List<Waiter> formGroup() {
    List<Waiter> group = new ArrayList<>();
    Waiter first = waiting.poll();
    group.add(first);
    long blocks = first.append().blocks().size();
    while (!waiting.isEmpty() && blocks + waiting.peek().append().blocks().size() <= groupBlocks) {
      Waiter next = waiting.poll();
      blocks += next.append().blocks().size();
      group.add(next);
    }
    groups++;
    groupedAppends += group.size();
    return group;
  }

  /** Commits the group; whatever escapes the committer fails the appends it left unsettled. */
  private Runnable commit(List<Waiter> group) {
    List<PendingAppend> appends = new ArrayList<>(group.size());
    group.forEach(waiter -> appends.add(waiter.append()));
    try {
      return committer.commit(appends);
    } catch (RuntimeException | Error e) {
      RuntimeException failure = e instanceof RuntimeException runtime ? runtime
          : new IllegalStateException("committing a group of appends failed: " + e, e);
      for (PendingAppend append : appends) {
        if (!append.settled()) {
          append.failed(failure);
        }
      }
      return () -> { };
    }
  }

  private static void quietly(Runnable step) {
    try {
      step.run();
    } catch (RuntimeException e) {
      // A caller's own failure (a response to a client that went away): the next appends go on.
    }
  }
}
