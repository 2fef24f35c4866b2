package dev.feedstore.client.simulation;

import dev.feedstore.core.sync.SyncStep;
import java.util.Map;
import java.util.TreeMap;

/** Counts what schedules did: operations, injected faults, recoveries. Not thread-safe. */
final class Stats {
  final Map<String, Long> ops = new TreeMap<>();
  final Map<String, Long> faults = new TreeMap<>();
  final Map<String, Long> steps = new TreeMap<>();
  final Map<String, Long> storageFaults = new TreeMap<>();
  long failedCommits;
  /** Blocks compactions removed, and the compactions that removed any. */
  long compactedBlocks;
  long compactions;
  long schedules;
  /** Live-query results compared with their queries from scratch, the rows they held, and the events that came. */
  long queryChecks;
  long queryRows;
  final Map<String, Long> queryEvents = new TreeMap<>();

  void op(Op op) {
    ops.merge(op.getClass().getSimpleName(), 1L, Long::sum);
  }

  void fault(Fault fault) {
    if (fault != Fault.NONE) {
      faults.merge(fault.name(), 1L, Long::sum);
    }
  }

  void storageFault(Op.StorageFault fault, long commitsFailed) {
    storageFaults.merge((fault.authority() ? "authority " : "replica ") + fault.kind(), 1L, Long::sum);
    failedCommits += commitsFailed;
  }

  void step(SyncStep step) {
    steps.merge(step.kind().name(), 1L, Long::sum);
  }

  @Override
  public String toString() {
    return "schedules=" + schedules + "\n  operations " + ops + "\n  network faults " + faults
        + "\n  storage faults " + storageFaults + ", commits they failed " + failedCommits
        + "\n  sync outcomes " + steps + "\n  compactions that removed blocks " + compactions + ", blocks removed "
        + compactedBlocks + "\n  live-query results checked " + queryChecks + " (" + queryRows + " rows), events "
        + queryEvents;
  }
}
