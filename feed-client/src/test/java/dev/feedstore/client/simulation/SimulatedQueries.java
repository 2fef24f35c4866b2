package dev.feedstore.client.simulation;

import dev.feedstore.client.LiveQueryEvent;
import dev.feedstore.client.LiveQueryRegistration;
import dev.feedstore.client.Replica;
import dev.feedstore.client.testing.FromScratch;
import dev.feedstore.client.testing.QueryRecorder;
import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.Row;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Live queries on every replica of a world, and their checks. At every quiescent point (after each
 * operation, once the replica's listener thread has told everything) each query's result, as its
 * listener's copy holds it after applying the snapshot and every batch in order, must equal the
 * query evaluated from scratch over the replica's file ({@link FromScratch}), with the same time of
 * evaluation (the replicas' fixed clock); at the end, replicas that hold the same blocks, all
 * positioned, must hold the same results. A replica opened again (a restart, a restore) is followed
 * afresh. Not thread-safe.
 */
final class SimulatedQueries {
  /**
   * Documents by feed and by a key in the content, filters on content and metadata, a tombstone, a
   * projection, windows over content and over receive time (pending versions included), pending
   * versions only, and positioned ones only (a pending version's receive time is the evaluation
   * time, {@link World#EVALUATED_AT}).
   */
  static final List<LiveQuery> QUERIES = List.of(
      LiveQuery.parse("space:sim"),
      LiveQuery.parse("space:sim key:/id tombstone /gone = true"),
      LiveQuery.parse("space:sim namespace:a key:/id where /n < 70 order /n desc limit 3"),
      LiveQuery.parse("space:sim key:/id where /tag in [\"a\",\"b\"] order receivedAt desc limit 4"),
      LiveQuery.parse("space:sim key:/v order receivedAt asc limit 5 select /id,/tag"),
      LiveQuery.parse("space:sim namespace:b key:/id where positioned = false"),
      LiveQuery.parse("space:sim key:/id where receivedAt > " + World.EVALUATED_AT + " order /id asc"));
  private static final Duration WAIT = Duration.ofSeconds(30);
  /** Violations kept, beyond which they are only counted: the first says what went wrong. */
  private static final int KEPT = 5;

  private final Stats stats;
  private final List<List<QueryRecorder>> recorders = new ArrayList<>();
  private final List<LiveQueryRegistration> awaiting = new ArrayList<>();
  final List<String> violations = new ArrayList<>();
  private int more;

  SimulatedQueries(int replicas, Stats stats) {
    this.stats = stats;
    for (int r = 0; r < replicas; r++) {
      recorders.add(List.of());
      awaiting.add(null);
    }
  }

  /** Follows every query on {@code replica}, replica {@code r} from now on. */
  void follow(int r, Replica replica) {
    countEvents(r);
    List<QueryRecorder> mine = new ArrayList<>();
    LiveQueryRegistration last = null;
    for (LiveQuery query : QUERIES) {
      QueryRecorder recorder = new QueryRecorder(query);
      last = replica.liveQuery(query, recorder);
      mine.add(recorder);
    }
    recorders.set(r, mine);
    awaiting.set(r, last);
  }

  /** Checks every query of every replica against its file, after {@code step}. */
  void check(Replica[] replicas, String step) {
    for (int r = 0; r < replicas.length; r++) {
      if (!await(r)) {
        violation("after " + step + ": r" + r + "'s live queries were not told every commit within " + WAIT);
        continue;
      }
      List<List<Row>> expected = FromScratch.rows(replicas[r], QUERIES, World.EVALUATED_AT);
      for (int q = 0; q < QUERIES.size(); q++) {
        QueryRecorder recorder = recorders.get(r).get(q);
        List<Row> rows = recorder.rows();
        stats.queryChecks++;
        stats.queryRows += rows.size();
        if (!recorder.misfits().isEmpty()) {
          violation("after " + step + ": r" + r + " query " + q + " got a batch that did not fit: "
              + recorder.misfits().get(0).getMessage());
        } else if (recorder.events().stream().anyMatch(e -> e instanceof LiveQueryEvent.Ended)) {
          violation("after " + step + ": r" + r + " query " + q + " ended: " + recorder.events().stream()
              .filter(e -> e instanceof LiveQueryEvent.Ended).findFirst().orElseThrow());
        } else if (!rows.equals(expected.get(q))) {
          violation("after " + step + ": r" + r + " query " + q + " (" + QUERIES.get(q) + ") holds " + rows
              + ", from scratch " + expected.get(q));
        }
      }
    }
  }

  /** Replicas that hold the same blocks, all positioned, hold the same results. */
  void checkAgreement(Replica[] replicas, FeedId[] feeds) {
    for (int a = 0; a < replicas.length; a++) {
      for (int b = a + 1; b < replicas.length; b++) {
        Set<String> held = held(replicas[a], feeds);
        if (held != null && held.equals(held(replicas[b], feeds))) {
          for (int q = 0; q < QUERIES.size(); q++) {
            List<Row> one = recorders.get(a).get(q).rows();
            List<Row> other = recorders.get(b).get(q).rows();
            if (!one.equals(other)) {
              violation("r" + a + " and r" + b + " hold the same blocks but query " + q + " (" + QUERIES.get(q)
                  + ") holds " + one + " on one, " + other + " on the other");
            }
          }
        }
      }
    }
  }

  /** Every block the replica holds with its position and receive time; null if one is pending. */
  private static Set<String> held(Replica replica, FeedId[] feeds) {
    Set<String> held = new HashSet<>();
    for (FeedId feed : feeds) {
      for (Block block : replica.read(World.SPACE, feed)) {
        if (!block.isPositioned()) {
          return null;
        }
        held.add(block.key() + "@" + block.position() + " " + block.receivedAt() + " " + block.data().toStringUtf8());
      }
    }
    return held;
  }

  /** Counts the events of replica {@code r}'s queries, which are followed no more. */
  void countEvents(int r) {
    for (QueryRecorder recorder : recorders.get(r)) {
      recorder.events().forEach(event -> stats.queryEvents.merge(event.getClass().getSimpleName(), 1L, Long::sum));
    }
  }

  private boolean await(int r) {
    try {
      return awaiting.get(r).awaitCurrent(WAIT);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private void violation(String text) {
    if (violations.size() < KEPT) {
      violations.add(text);
    } else if (more++ == 0) {
      violations.add("(and more live-query violations)");
    }
  }
}
