package dev.feedstore.server.internal.queries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.Row;
import dev.feedstore.core.query.result.ResultCopy;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.internal.access.Caller;
import dev.feedstore.server.internal.authority.AppendCommand;
import dev.feedstore.server.internal.errors.ShuttingDownException;
import dev.feedstore.testing.Await;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A committed block is evaluated only by the queries it can change ({@link QueryIndex}): counted by
 * {@link LiveQueries#evaluations}, never timed; and every query's result stays exact, above all for
 * documents that leave it (a new version whose value no longer matches, several versions of one
 * document in one evaluated range, a document matching beyond a query's limit). Each result is
 * checked against the query evaluated from scratch over the store. Drains run when the test says,
 * over a real SQLite file.
 */
class QueryIndexTest extends LiveQueriesFixture {
  private final FeedId feedA = TestBlocks.feedId();
  private final FeedId feedB = TestBlocks.feedId();
  private final Map<FeedId, Long> sequences = new HashMap<>();
  /** The whole space keyed by feed: every block is a new version of a document of it, and changes its row. */
  private static final LiveQuery EVERY_BLOCK = LiveQuery.parse("space:s");
  private final Map<LiveQuery, CopySink> followed = new LinkedHashMap<>();
  private long last;

  @Test
  void aBlockIsEvaluatedOnlyByTheQueriesWhoseValueItHoldsOrWhoseDocumentItChanges() {
    for (int k = 0; k < 40; k++) {
      follow("space:s key:/id where /status = \"s" + k + "\"");
    }
    follow(EVERY_BLOCK.toText());

    assertEquals(2, evaluationsOf(() -> append(feedA, task(1, "s7", 0))),
        "the query of s7 and the query without an indexable filter, not the 39 others");
    assertEquals(rows(1), ids("space:s key:/id where /status = \"s7\""));

    assertEquals(3, evaluationsOf(() -> append(feedA, task(1, "s8", 0))),
        "s7, which held the document and must let it leave, s8, which it enters, and the query of every block");
    assertEquals(rows(), ids("space:s key:/id where /status = \"s7\""));
    assertEquals(rows(1), ids("space:s key:/id where /status = \"s8\""));

    assertEquals(1, evaluationsOf(() -> append(feedA, task(2, "none", 0))), "only the query of every block");
    assertEquals(1, evaluationsOf(() -> append(feedA, "not json")), "only the query of every block");

    CopySink s8 = followed.remove(LiveQuery.parse("space:s key:/id where /status = \"s8\""));
    s8.subscription.end(new ShuttingDownException());
    drains.runAll();
    assertEquals(2, evaluationsOf(() -> append(feedA, task(1, "s9", 0))),
        "s9 and the query of every block: s8, which held the document, has no subscriber left");
    assertAllExact();
  }

  @Test
  void aDocumentLeavesWhenSeveralOfItsVersionsAreEvaluatedTogether() {
    follow("space:s key:/id where /status = \"s1\"");
    follow("space:s key:/id where /status = \"s2\"");
    follow(EVERY_BLOCK.toText());
    // Both commits before the drains run: one evaluated range holds the version that enters s1 and
    // the one that takes it out again, which holds no value s1 is indexed by.
    append(feedA, task(5, "s1", 0));
    append(feedA, task(5, "s2", 0), task(6, "s1", 0), task(6, "other", 0));
    awaitEvaluated();
    assertEquals(rows(), ids("space:s key:/id where /status = \"s1\""));
    assertEquals(rows(5), ids("space:s key:/id where /status = \"s2\""));
    assertAllExact();
  }

  @Test
  void aDocumentMatchingBeyondTheLimitLeavesSoThatNoneMovesInInItsPlace() {
    follow("space:s key:/id where /status = \"s3\" order /n limit 1");
    follow(EVERY_BLOCK.toText());
    append(feedA, task(1, "s3", 1), task(2, "s3", 2));
    awaitEvaluated();
    assertEquals(rows(1), ids("space:s key:/id where /status = \"s3\" order /n limit 1"));

    append(feedB, task(2, "gone", 2)); // beyond the window: it leaves unseen
    awaitEvaluated();
    append(feedB, task(1, "gone", 1)); // the window's row leaves, and document 2 must not move in
    awaitEvaluated();
    assertEquals(rows(), ids("space:s key:/id where /status = \"s3\" order /n limit 1"));
    assertAllExact();
  }

  @Test
  void manyQueriesOnDifferentValuesEqualTheirResultsFromScratchAfterRandomCommits() {
    List<String> queries = new ArrayList<>();
    for (int k = 0; k < 6; k++) {
      queries.add("space:s key:/id where /status = \"s" + k + "\"");
    }
    String feedAId = feedA.value();
    queries.addAll(List.of(
        "space:s key:/id where /status in [\"s1\", \"s2\"]",
        "space:s key:/id where /status = \"s3\" order /n desc limit 2",
        "space:s key:/id where /status = \"s4\" and /n >= 2 order /n limit 1",
        "space:s key:/id where /n = 1",
        "space:s key:/id where /n in [2, 3] and /status in [\"s0\", \"s1\", \"s2\"] limit 2",
        "space:s key:/id where /status != \"s0\"",
        "space:s where /status = \"s2\"",
        "space:s key:/id where /status = \"s1\" tombstone /n = 3",
        "space:s key:/id where feed = \"" + feedAId + "\" order /n desc limit 3",
        "space:s key:/id where /status = \"s5\" select /n",
        "space:s key:/id where /status = null"));
    queries.forEach(this::follow);
    follow(EVERY_BLOCK.toText());

    Random random = new Random(7);
    int leftRows = 0;
    for (int step = 0; step < 300; step++) {
      List<String> blocks = new ArrayList<>();
      for (int n = random.nextInt(3); n >= 0; n--) {
        int kind = random.nextInt(20);
        blocks.add(kind == 0 ? "not json" : kind == 1 ? "{\"status\":\"s1\"}"
            : kind == 2 ? "{\"id\":" + random.nextInt(10) + "}"
            : kind == 3 ? "{\"id\":" + random.nextInt(10) + ",\"status\":null}"
            : task(random.nextInt(10), "s" + random.nextInt(7), random.nextInt(4)));
      }
      append(random.nextBoolean() ? feedA : feedB, blocks.toArray(String[]::new));
      if (random.nextInt(3) == 0) {
        awaitEvaluated();
        assertAllExact();
      }
    }
    awaitEvaluated();
    assertAllExact();
    for (CopySink sink : followed.values()) {
      leftRows += sink.left;
    }
    assertTrue(leftRows > 100, "rows left the results many times: " + leftRows);
  }

  /** Opens a subscriber of {@code text} and runs the drains until its snapshot is in. */
  private void follow(String text) {
    LiveQuery query = LiveQuery.parse(text);
    CopySink sink = new CopySink(query);
    sink.subscription = queries.open(query, Optional.empty(), sink, "c", Caller.open("p"));
    followed.put(query, sink);
    Await.until("the snapshot of " + text, () -> {
      drains.runAll();
      return sink.live;
    });
  }

  /** Appends one commit of {@code contents} to {@code feed}. */
  private void append(FeedId feed, String... contents) {
    List<Block> blocks = new ArrayList<>();
    for (String content : contents) {
      long sequence = sequences.merge(feed, 1L, Long::sum) - 1;
      blocks.add(TestBlocks.block(feed, "a", sequence, content));
    }
    long[] positions = authority.append(new AppendCommand(SPACE, Optional.empty(), blocks)).positions();
    last = positions[positions.length - 1];
  }

  private static String task(int id, String status, int n) {
    return "{\"id\":" + id + ",\"status\":\"" + status + "\",\"n\":" + n + "}";
  }

  /** How many (block, query) evaluations {@code commit} cost, once every query has evaluated it. */
  private long evaluationsOf(Runnable commit) {
    drains.runAll();
    long before = queries.evaluations();
    commit.run();
    awaitEvaluated();
    return queries.evaluations() - before;
  }

  /**
   * Runs the drains until the query of every block has sent the batch of the last commit: the
   * evaluation applies a range to every query before it returns, and the drains it wakes run before
   * {@code runAll} returns.
   */
  private void awaitEvaluated() {
    CopySink every = followed.get(EVERY_BLOCK);
    Await.until("every query evaluated position " + last, () -> {
      drains.runAll();
      return every.at >= last;
    });
  }

  /** Every followed query's rows equal the query evaluated from scratch over the store. */
  private void assertAllExact() {
    QueryStorage storage = new QueryStorage(authority, Clock.systemUTC(), new BlockParses());
    followed.forEach((query, sink) -> {
      List<Row> expected = query.evaluate(storage.load(query).current());
      assertEquals(expected, sink.copy.rows(), () -> "position " + last + ", " + query);
    });
  }

  private List<String> ids(String text) {
    return followed.get(LiveQuery.parse(text)).copy.rows().stream().map(row -> row.id().toString()).toList();
  }

  private static List<String> rows(int... ids) {
    return java.util.Arrays.stream(ids).mapToObj(String::valueOf).toList();
  }

  /** Keeps a subscriber's copy of the result from what its subscription sends. Confined to the drains and the test. */
  private static final class CopySink implements QuerySink {
    final ResultCopy copy;
    final List<Row> snapshot = new ArrayList<>();
    QuerySubscription subscription;
    volatile boolean live;
    /** The position of the last batch. */
    volatile long at;
    int left;

    CopySink(LiveQuery query) {
      this.copy = new ResultCopy(query);
    }

    @Override
    public void start(Runnable onReady, Runnable onGone) {}

    @Override
    public boolean isReady() {
      return true;
    }

    @Override
    public void ack(Ack ack) {}

    @Override
    public void reset(String reason, ResumeToken fence) {
      throw new AssertionError("no reset was expected: " + reason);
    }

    @Override
    public void snapshot(List<Row> rows, ResumeToken fence) {
      snapshot.addAll(rows);
    }

    @Override
    public void ready(ResumeToken at) {
      copy.load(snapshot);
      this.at = at.position();
      live = true;
    }

    @Override
    public void changes(QueryBatch batch) {
      copy.apply(batch.changes());
      left += batch.changes().left().size();
      at = batch.stamp().position();
    }

    @Override
    public void heartbeat(ResumeToken at) {}

    @Override
    public void end(RuntimeException reason) {}
  }
}
