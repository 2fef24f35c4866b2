package dev.feedstore.testing;

import dev.feedstore.core.sync.Authority;
import dev.feedstore.core.sync.CompactedHistoryException;
import dev.feedstore.core.sync.PullPage;
import dev.feedstore.core.sync.PullTicket;
import dev.feedstore.core.sync.SpaceSync;
import dev.feedstore.core.sync.SyncStep;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Drives replicas' sync of one space one step at a time, with no session and no threads: push until
 * nothing is left, pull until the authority has nothing more, round after round until a round
 * changes nothing. Records every step, so tests can look for the recovery they provoked. Works with
 * any kind of replica {@code R} whose {@link SpaceSync} of the space the function given finds (the
 * client library's {@code Replica}, or a bare store with a {@code SpaceSync}). Not thread-safe.
 *
 * @param <R> the replicas it drives
 */
public final class SyncDriver<R> {
  private final Authority authority;
  private final Function<? super R, SpaceSync> syncOf;
  private final List<SyncStep> steps = new ArrayList<>();
  private final int pushesInFlight;

  /** A driver that talks to {@code authority} and finds a replica's sync of the space with {@code syncOf}. */
  public SyncDriver(Authority authority, Function<? super R, SpaceSync> syncOf) {
    this(authority, syncOf, 1);
  }

  /**
   * As {@link #SyncDriver(Authority, Function)}, each push sending up to {@code pushesInFlight}
   * batches in order at once ({@link SpaceSync#pushSteps}).
   */
  public SyncDriver(Authority authority, Function<? super R, SpaceSync> syncOf, int pushesInFlight) {
    this.authority = authority;
    this.syncOf = syncOf;
    this.pushesInFlight = pushesInFlight;
  }

  /** Every step taken, in order. */
  public List<SyncStep> steps() {
    return steps;
  }

  /** True if some recorded step had {@code kind} and its detail contains {@code text}. */
  public boolean saw(SyncStep.Kind kind, String text) {
    return steps.stream().anyMatch(s -> s.kind() == kind && s.detail().contains(text));
  }

  /** One push: up to the driver's pushes in flight sent at once; returns the step of the last. */
  public SyncStep push(R replica) {
    List<SyncStep> pushed = syncOf.apply(replica).pushSteps(authority, pushesInFlight);
    pushed.forEach(this::record);
    return pushed.get(pushed.size() - 1);
  }

  /** One pull step; returns the page's outcome. */
  public SyncStep pull(R replica) {
    return pullPage(replica).step();
  }

  /** One pull step, with whether the authority had more. */
  public PullOutcome pullPage(R replica) {
    SpaceSync sync = syncOf.apply(replica);
    Optional<PullTicket> ticket = sync.beginPull();
    if (ticket.isEmpty()) {
      return new PullOutcome(record(new SyncStep(SyncStep.Kind.IDLE, 0, "nothing replicated")), true);
    }
    PullPage page;
    try {
      page = authority.pull(ticket.get().request());
    } catch (CompactedHistoryException compacted) {
      return new PullOutcome(record(sync.applyCompacted(ticket.get(), compacted)), false);
    }
    SyncStep step = record(sync.applyPull(ticket.get(), page).step());
    return new PullOutcome(step, page.complete());
  }

  /** What a pull step did, and whether the authority said nothing more follows. */
  public record PullOutcome(SyncStep step, boolean complete) {}

  /**
   * Syncs the replicas round-robin until a whole round changes nothing.
   *
   * @return the number of rounds it took
   * @throws AssertionError if {@code maxRounds} rounds are not enough (sync does not settle)
   */
  @SafeVarargs
  public final int untilQuiet(int maxRounds, R... replicas) {
    for (int round = 1; round <= maxRounds; round++) {
      boolean changed = false;
      for (R replica : replicas) {
        changed |= pushAll(replica);
        changed |= pullAll(replica);
      }
      if (!changed) {
        return round;
      }
    }
    throw new AssertionError("sync did not settle within " + maxRounds + " rounds; last steps: "
        + steps.subList(Math.max(0, steps.size() - 10), steps.size()));
  }

  private boolean pushAll(R replica) {
    boolean changed = false;
    for (int i = 0; i < 10_000; i++) {
      SyncStep step = push(replica);
      if (step.kind() == SyncStep.Kind.IDLE) {
        return changed;
      }
      changed = true;
    }
    throw new AssertionError("push does not end");
  }

  private boolean pullAll(R replica) {
    boolean changed = false;
    for (int i = 0; i < 10_000; i++) {
      PullOutcome outcome = pullPage(replica);
      SyncStep step = outcome.step();
      if (step.kind() == SyncStep.Kind.IDLE) {
        return changed;
      }
      if (step.kind() != SyncStep.Kind.PULLED || step.blocks() > 0) {
        changed = true;
      }
      if (step.kind() == SyncStep.Kind.PULLED && outcome.complete()) {
        return changed;
      }
    }
    throw new AssertionError("pull does not end");
  }

  private SyncStep record(SyncStep step) {
    steps.add(step);
    return step;
  }
}
