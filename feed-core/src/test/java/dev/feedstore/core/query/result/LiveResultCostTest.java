package dev.feedstore.core.query.result;

import static dev.feedstore.core.testing.TestVersions.positioned;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.query.DocumentId;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.ParsedBlock;
import dev.feedstore.core.testing.TestBlocks;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A change costs work for the documents it touches, not a re-run: with 100,000 documents, a batch of
 * one document makes one evaluation and a few dozen comparisons (log2 of 100,000 is 17), where a
 * re-run would make 100,000 evaluations and over a million comparisons. Counted, not timed.
 */
class LiveResultCostTest {
  private static final int DOCUMENTS = 100_000;
  /**
   * 4 log2 n: a removal, an insertion, a move across the limit and the check against the window's
   * end each search a tree of at most n members (about 40 are made).
   */
  private static final int COMPARISONS_PER_DOCUMENT = 4 * 17;
  private static final FeedId FEED = TestBlocks.feedId();
  private static final List<ParsedBlock> VERSIONS = new ArrayList<>();

  @BeforeAll
  static void documents() {
    for (int i = 0; i < DOCUMENTS; i++) {
      VERSIONS.add(version(i, i % 1000, i % 3 != 0));
    }
  }

  private static ParsedBlock version(int id, int rank, boolean open) {
    return positioned(FEED, id + 1, id, "{\"id\":" + id + ",\"rank\":" + rank + ",\"open\":" + open + "}");
  }

  private static LiveResult loaded(String query) {
    LiveResult result = new LiveResult(LiveQuery.parse(query));
    result.reset(VERSIONS);
    assertTrue(result.matches() > 60_000, "most documents match: " + result.matches());
    return result;
  }

  @Test
  void aOneDocumentBatchEvaluatesOneVersionAndComparesLogarithmically() {
    LiveResult result = loaded("space:w key:/id where /open = true order /rank desc limit 50");
    long evaluations = result.evaluations;
    long comparisons = result.comparisons();

    ChangeBatch batch = result.apply(List.of(DocumentChange.current(version(77, 5000, true))));

    assertEquals(1, batch.entered().size(), "the document moved to the top, so it entered");
    assertEquals(1, batch.left().size(), "and pushed the fiftieth row out");
    assertEquals(1, result.evaluations - evaluations);
    long made = result.comparisons() - comparisons;
    assertTrue(made <= COMPARISONS_PER_DOCUMENT, made + " comparisons for one document");
  }

  @Test
  void everyKindOfChangeCostsLogarithmically() {
    LiveResult result = loaded("space:w key:/id where /open = true order /rank asc limit 50");
    List<List<DocumentChange>> batches = List.of(
        List.of(DocumentChange.current(version(5, 999, true))),
        List.of(DocumentChange.current(version(1, 0, true))),
        List.of(DocumentChange.current(version(2, 500, false))),
        List.of(DocumentChange.removed(DocumentId.of(1))),
        List.of(DocumentChange.removed(DocumentId.of(99_999))),
        List.of(DocumentChange.current(version(3, 0, false))));
    for (List<DocumentChange> batch : batches) {
      long evaluations = result.evaluations;
      long comparisons = result.comparisons();
      result.apply(batch);
      long made = result.comparisons() - comparisons;
      assertTrue(result.evaluations - evaluations <= 1, batch.toString());
      assertTrue(made <= COMPARISONS_PER_DOCUMENT, made + " comparisons for " + batch);
    }
  }

  @Test
  void aBatchOfKDocumentsCostsInProportionToK() {
    LiveResult result = loaded("space:w key:/id where /open = true order /rank desc");
    List<DocumentChange> batch = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      batch.add(DocumentChange.current(version(i * 997, (i * 31) % 1000, i % 2 == 0)));
    }
    long evaluations = result.evaluations;
    long comparisons = result.comparisons();
    result.apply(batch);
    assertEquals(100, result.evaluations - evaluations);
    assertTrue(result.comparisons() - comparisons <= 100L * COMPARISONS_PER_DOCUMENT,
        (result.comparisons() - comparisons) + " comparisons for 100 documents");
  }

  @Test
  void aQueryWithoutALimitComparesNoRowsPerChangeAndOrdersItsSnapshot() {
    String query = "space:w key:/id where /open = true order /rank desc";
    LiveResult result = loaded(query);
    long comparisons = result.comparisons();
    ParsedBlock raised = version(77, 5000, true);
    ParsedBlock closed = version(79, 3, false);

    ChangeBatch moved = result.apply(List.of(DocumentChange.current(raised)));
    ChangeBatch gone = result.apply(List.of(DocumentChange.current(closed)));

    assertEquals(1, moved.updated().size());
    assertEquals(1, gone.left().size());
    assertEquals(0, result.comparisons() - comparisons, "every matching document is in the result: no order to keep");
    List<ParsedBlock> now = new ArrayList<>(VERSIONS);
    now.set(77, raised);
    now.set(79, closed);
    assertEquals(LiveQuery.parse(query).evaluate(now), result.snapshot());
  }
}
