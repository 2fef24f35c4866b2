package dev.feedstore.core.query.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.query.DocumentId;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.ParsedBlock;
import dev.feedstore.core.query.Row;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.core.testing.TestVersions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The incremental result against the query evaluated from scratch ({@link LiveQuery#evaluate}): for
 * random queries, documents and batches of version changes, a subscriber's copy made of the snapshot
 * and every change batch applied in order equals the from-scratch result after every batch, and so
 * does the engine's own snapshot. A second test breaks the engine on purpose and expects the check
 * to notice.
 */
class LiveResultModelTest {
  private static final int SEEDS = 200;
  private static final int STEPS = 60;
  private static final List<FeedId> FEEDS = List.of(TestBlocks.feedId(), TestBlocks.feedId(), TestBlocks.feedId(),
      TestBlocks.feedId(), TestBlocks.feedId(), TestBlocks.feedId());

  private static final List<String> POINTER_KEYED = List.of(
      "",
      "where /done = false",
      "where /n >= 1 order /n desc",
      "where /s > \"a\" order /s",
      "tombstone /deleted = true order receivedAt desc",
      "where /tags contains \"x\" order /tags",
      "where positioned = true order /n",
      "where /n in [1, 2, \"1\"] select /s, /n order /s desc",
      "where receivedAt >= 40 tombstone /deleted = true order receivedAt",
      "where /n != 2 and /s exists order /n asc");
  private static final List<String> FEED_KEYED = List.of(
      "order /n desc",
      "where /done != true order /n",
      "where /gone not exists order receivedAt desc",
      "tombstone /deleted = true");

  @Test
  void snapshotAndChangesEqualTheResultFromScratchAtEveryStep() {
    int[] changes = new int[3];
    for (long seed = 0; seed < SEEDS; seed++) {
      Optional<String> disagreement = run(seed, false, changes);
      assertTrue(disagreement.isEmpty(), () -> disagreement.get());
    }
    assertTrue(changes[0] > 1000 && changes[1] > 1000 && changes[2] > 1000,
        "the histories entered, updated and left rows many times: " + java.util.Arrays.toString(changes));
  }

  @Test
  void theCheckFailsWhenTheEngineIsBroken() {
    int caught = 0;
    for (long seed = 0; seed < SEEDS; seed++) {
      if (run(seed, true, new int[3]).isPresent()) {
        caught++;
      }
    }
    assertTrue(caught > SEEDS / 4, "a window that lets no row move in must be caught, it was in " + caught + " runs");
  }

  @Test
  void appendedBlocksGiveTheResultOfTheLastVersionOfEachDocument() {
    for (long seed = 0; seed < SEEDS / 4; seed++) {
      Random random = new Random(seed);
      LiveQuery query = query(random, true);
      LiveResult result = new LiveResult(query);
      ResultCopy copy = new ResultCopy(query);
      List<ParsedBlock> blocks = new ArrayList<>();
      long position = 1;
      boolean offline = false;
      for (int step = 0; step < STEPS; step++) {
        List<ParsedBlock> batch = new ArrayList<>();
        for (int n = random.nextInt(4); n >= 0; n--) {
          offline |= random.nextInt(40) == 0;
          String namespace = random.nextInt(5) == 0 ? "notes" : "tasks";
          String content = random.nextInt(8) == 0 ? "{\"id\":true}" : content(random, key(random));
          batch.add(TestVersions.version(FEEDS.get(random.nextInt(FEEDS.size())), namespace, "actor",
              offline ? 0 : position++, random.nextInt(100), 1000 + step, content));
        }
        blocks.addAll(batch);
        copy.apply(result.applyAppended(batch));
        Map<DocumentId, ParsedBlock> last = new LinkedHashMap<>();
        for (ParsedBlock block : blocks) {
          query.documentOf(block).ifPresent(id -> last.put(id, block));
        }
        List<Row> expected = query.evaluate(last.values());
        assertEquals(expected, copy.rows(), "seed " + seed + " step " + step + ", " + query);
        assertEquals(expected, result.snapshot(), "seed " + seed + " step " + step + ", " + query);
      }
    }
  }

  /**
   * Runs one random history; the first disagreement between the incremental and the from-scratch
   * result, or empty when there was none.
   */
  private static Optional<String> run(long seed, boolean breakEngine, int[] changes) {
    Random random = new Random(seed);
    boolean byPointer = random.nextInt(4) != 0;
    LiveQuery query = query(random, byPointer);
    LiveResult result = new LiveResult(query);
    if (breakEngine) {
      result.breakWindowRefill();
    }
    ResultCopy copy = new ResultCopy(query);
    Set<DocumentId> told = new HashSet<>();
    result.listenToMatches(new LiveResult.MatchListener() {
      @Override
      public void matched(DocumentId id) {
        assertTrue(told.add(id), () -> id + " told as matched twice");
      }

      @Override
      public void unmatched(DocumentId id) {
        assertTrue(told.remove(id), () -> id + " told as unmatched while it did not match");
      }
    });
    Map<DocumentId, ParsedBlock> current = new LinkedHashMap<>();
    long position = 1;
    try {
      for (int step = 0; step < STEPS; step++) {
        long now = 1000 + step;
        if (step == 0 || random.nextInt(15) == 0) {
          // A reset: the first snapshot, or history rewritten (some documents changed or gone).
          for (DocumentId id : new ArrayList<>(current.keySet())) {
            if (random.nextInt(4) == 0) {
              current.remove(id);
            } else if (random.nextInt(3) == 0) {
              current.put(id, version(random, byPointer, id, position++, now));
            }
          }
          ChangeBatch diff = result.reset(List.copyOf(current.values()));
          if (step == 0) {
            copy.load(result.snapshot());
          } else {
            apply(diff, copy, changes);
          }
        } else {
          List<DocumentChange> batch = new ArrayList<>();
          for (int n = random.nextInt(5); n >= 0; n--) {
            DocumentId id = byPointer ? key(random) : DocumentId.of(FEEDS.get(random.nextInt(FEEDS.size())).value());
            if (random.nextInt(4) == 0) {
              batch.add(DocumentChange.removed(id));
              current.remove(id);
            } else {
              ParsedBlock version = version(random, byPointer, id, position++, now);
              batch.add(DocumentChange.current(version));
              current.put(id, version);
            }
          }
          apply(result.apply(batch), copy, changes);
        }
        List<Row> expected = query.evaluate(current.values());
        if (!expected.equals(copy.rows()) || !expected.equals(result.snapshot())) {
          return Optional.of("seed " + seed + " step " + step + ", " + query + ": expected " + expected
              + " but the copy holds " + copy.rows() + " and the engine " + result.snapshot());
        }
        Set<DocumentId> matching = new HashSet<>();
        current.forEach((id, version) -> query.rowOf(id, version).ifPresent(row -> matching.add(id)));
        Set<DocumentId> held = new HashSet<>();
        result.forEachMatch(held::add);
        assertEquals(matching, told, "seed " + seed + " step " + step + ", " + query + ": the documents told as matching");
        assertEquals(matching, held, "seed " + seed + " step " + step + ", " + query + ": the documents given as matching");
      }
    } catch (IllegalStateException batchDoesNotFit) {
      return Optional.of("seed " + seed + ", " + query + ": " + batchDoesNotFit.getMessage());
    }
    return Optional.empty();
  }

  /** Applies a batch to the copy and counts its entered, updated and left rows. */
  private static void apply(ChangeBatch batch, ResultCopy copy, int[] changes) {
    copy.apply(batch);
    changes[0] += batch.entered().size();
    changes[1] += batch.updated().size();
    changes[2] += batch.left().size();
  }

  private static LiveQuery query(Random random, boolean byPointer) {
    List<String> clauses = byPointer ? POINTER_KEYED : FEED_KEYED;
    String text = "space:w namespace:tasks " + (byPointer ? "key:/id " : "") + clauses.get(random.nextInt(clauses.size()))
        + (random.nextInt(3) == 0 ? "" : " limit " + (1 + random.nextInt(6)));
    return LiveQuery.parse(text);
  }

  /** A new version of document {@code id}: positioned or pending, JSON or (keyed by feed) not. */
  private static ParsedBlock version(Random random, boolean byPointer, DocumentId id, long position, long now) {
    boolean pending = random.nextInt(4) == 0;
    String content = !byPointer && random.nextInt(6) == 0 ? "not json" : content(random, id);
    FeedId feed = byPointer ? FEEDS.get(random.nextInt(FEEDS.size())) : FeedId.of(((DocumentId.Text) id).value());
    return TestVersions.version(feed, "tasks", "actor", pending ? 0 : position, random.nextInt(8) == 0 ? -1
        : random.nextInt(100), now, content);
  }

  private static DocumentId key(Random random) {
    int n = random.nextInt(20);
    return n < 12 ? DocumentId.of(n - 2) : DocumentId.of(String.valueOf((char) ('a' + n - 12)));
  }

  private static String content(Random random, DocumentId id) {
    StringBuilder json = new StringBuilder("{\"id\":").append(id.toJson());
    String[] numbers = {"1", "1.0", "2", "-0", "3e0", "\"1\"", "2.5", "null"};
    String[] strings = {"\"a\"", "\"b\"", "\"B\"", "\"\uFFFF\"", "\"😀\"", "7"};
    String[] tags = {"[]", "[\"x\"]", "[\"y\",\"x\"]", "\"x\"", "[1]"};
    if (random.nextInt(5) != 0) {
      json.append(",\"n\":").append(numbers[random.nextInt(numbers.length)]);
    }
    if (random.nextInt(5) != 0) {
      json.append(",\"s\":").append(strings[random.nextInt(strings.length)]);
    }
    if (random.nextBoolean()) {
      json.append(",\"tags\":").append(tags[random.nextInt(tags.length)]);
    }
    json.append(",\"done\":").append(random.nextBoolean());
    if (random.nextInt(4) == 0) {
      json.append(",\"deleted\":true");
    }
    if (random.nextInt(6) == 0) {
      json.append(",\"gone\":1");
    }
    return json.append('}').toString();
  }
}
