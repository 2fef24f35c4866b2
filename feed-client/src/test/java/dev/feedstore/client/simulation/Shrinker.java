package dev.feedstore.client.simulation;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Makes a failing schedule smaller while it still fails (delta debugging: drop chunks, then single
 * operations), within a budget of runs.
 */
final class Shrinker {
  private Shrinker() {}

  static List<Op> shrink(List<Op> ops, Predicate<List<Op>> fails, int maxRuns) {
    List<Op> current = new ArrayList<>(ops);
    int runs = 0;
    int parts = 2;
    while (current.size() >= 2 && runs < maxRuns) {
      int chunk = (current.size() + parts - 1) / parts;
      boolean reduced = false;
      for (int start = 0; start < current.size() && runs < maxRuns; start += chunk) {
        List<Op> candidate = new ArrayList<>(current.subList(0, start));
        candidate.addAll(current.subList(Math.min(current.size(), start + chunk), current.size()));
        runs++;
        if (!candidate.isEmpty() && fails.test(candidate)) {
          current = candidate;
          parts = Math.max(parts - 1, 2);
          reduced = true;
          break;
        }
      }
      if (!reduced) {
        if (chunk == 1) {
          break;
        }
        parts = Math.min(current.size(), parts * 2);
      }
    }
    return current;
  }
}
