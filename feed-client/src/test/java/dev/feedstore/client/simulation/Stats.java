package dev.feedstore.client.simulation;

import dev.feedstore.core.sync.SyncStep;
import java.util.Map;
import java.util.TreeMap;

/** Counts what schedules did: operations, injected faults, recoveries. Not thread-safe. */
final class Stats {
  final Map<String, Long> ops = new TreeMap<>();
  final Map<String, Long> faults = new TreeMap<>();
  final Map<String, Long> steps = new TreeMap<>();
  long schedules;

  void op(Op op) {
    ops.merge(op.getClass().getSimpleName(), 1L, Long::sum);
  }

  void fault(Fault fault) {
    if (fault != Fault.NONE) {
      faults.merge(fault.name(), 1L, Long::sum);
    }
  }

  void step(SyncStep step) {
    steps.merge(step.kind().name(), 1L, Long::sum);
  }

  @Override
  public String toString() {
    return "schedules=" + schedules + "\n  operations " + ops + "\n  network faults " + faults
        + "\n  sync outcomes " + steps;
  }
}
