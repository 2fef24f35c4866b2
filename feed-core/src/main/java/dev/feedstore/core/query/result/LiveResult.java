package dev.feedstore.core.query.result;

import dev.feedstore.core.LimitExceededException;
import dev.feedstore.core.Position;
import dev.feedstore.core.query.DocumentId;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.ParsedBlock;
import dev.feedstore.core.query.Row;
import dev.feedstore.core.query.RowVersion;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The live result of one query, kept up to date incrementally: it holds the matching documents
 * (each with its row, whether or not within the limit) in the query's order, takes the changes of
 * documents' current versions, and answers each batch of them with the net {@link ChangeBatch}.
 * The same code serves a replica and a server; it knows no transport and no storage.
 *
 * <p>The caller decides which version of a document is current (it knows the order of versions:
 * positioned blocks by position, then the replica's pending ones in the order it wrote them) and
 * says so with {@link #apply}. Callers whose new blocks always come after every version they gave
 * before (an authority committing positions, a replica appending) may hand the blocks over as they
 * come with {@link #applyAppended}. A fresh result is empty: {@link #reset} with the current
 * versions of every document in scope gives the first snapshot (as entered rows, and {@link
 * #snapshot()}).
 *
 * <p>Cost: a batch costs one evaluation per document it names and, with a limit, O(log n)
 * comparisons per document (n matching documents), moving at most one other row across the limit;
 * never a scan. Without a limit every match is in the result, so a batch compares nothing and
 * {@link #snapshot()} sorts the rows when asked (O(n log n)). A document the batch leaves out of
 * the result, as it was, costs no allocation. What every query would work out again from a block
 * (its version, its document key, its content) is worked out once per {@link ParsedBlock} and
 * shared by the rows of every result. {@link #reset} and {@link #removeBelow} read everything they
 * are given or hold.
 *
 * <p>Limits: at most {@code maxMatches} matching documents (all that match, not only those within
 * the limit; setting {@value #MATCHES_SETTING}, default {@value #DEFAULT_MAX_MATCHES}). A batch
 * that would go past it is refused with a {@link LimitExceededException} naming the setting.
 *
 * <p>Every method either applies its whole batch or, when it throws, changes nothing. Not
 * thread-safe: a caller confines a result to one thread or guards it with a lock; the batches it
 * returns are immutable and may be handed to any thread.
 */
public final class LiveResult {
  /** The setting that limits the documents one query may match. */
  public static final String MATCHES_SETTING = "live-query-matches";
  /** Its default. */
  public static final int DEFAULT_MAX_MATCHES = 100_000;

  /**
   * Told which documents start and stop matching a result's query (within its limit or not), for a
   * caller that keeps an index of queries by the documents they match. Called during the method that
   * changes the matches, on its thread; it must not throw, nor call back into the result.
   */
  public interface MatchListener {
    /** Document {@code id} matches the query now, and did not before. */
    void matched(DocumentId id);

    /** Document {@code id} no longer matches the query. */
    void unmatched(DocumentId id);
  }

  private static final MatchListener NO_LISTENER = new MatchListener() {
    @Override
    public void matched(DocumentId id) {}

    @Override
    public void unmatched(DocumentId id) {}
  };

  private final LiveQuery query;
  private final int maxMatches;
  private MatchListener matchListener = NO_LISTENER;
  private final Map<DocumentId, Member> members = new HashMap<>();
  private Window window;
  /** Whether a batch is being applied (not a {@link #reset}). */
  private boolean inBatch;
  /**
   * The rows shown before the batch being applied, of every document it moved (a null row: not
   * shown); null until the batch moves one.
   */
  private Map<DocumentId, Row> shownBefore;
  /** Versions evaluated so far, so tests can see what a change cost. */
  long evaluations;
  /** A fault for tests that prove a check can fail ({@link #breakWindowRefill}). */
  private boolean refillBroken;

  /** A result of {@code query} with the default limit of matching documents. */
  public LiveResult(LiveQuery query) {
    this(query, DEFAULT_MAX_MATCHES);
  }

  /**
   * @param maxMatches the most documents the query may match ({@value #MATCHES_SETTING})
   * @throws IllegalArgumentException if {@code maxMatches} is below 1
   */
  public LiveResult(LiveQuery query, int maxMatches) {
    this.query = Objects.requireNonNull(query, "query");
    if (maxMatches < 1) {
      throw new IllegalArgumentException(MATCHES_SETTING + " must be >= 1, was " + maxMatches);
    }
    this.maxMatches = maxMatches;
    this.window = newWindow();
  }

  /** The query this result answers. */
  public LiveQuery query() {
    return query;
  }

  /**
   * Tells {@code listener} from now on every document that starts or stops matching, in place of
   * the listener told so far (null: none). The documents that match when it is set are not told:
   * {@link #forEachMatch} gives them.
   */
  public void listenToMatches(MatchListener listener) {
    matchListener = listener == null ? NO_LISTENER : listener;
  }

  /** Gives {@code action} every document that matches now, within the limit or not, in no order. */
  public void forEachMatch(Consumer<DocumentId> action) {
    members.keySet().forEach(action);
  }

  /**
   * Applies new current versions and removals of documents, in order (a later change of a document
   * in the batch wins), and returns the net change of the result.
   *
   * @throws IllegalArgumentException if a version is outside the query's scope or has no document
   *     key, as a current version cannot be
   * @throws LimitExceededException if the result would match more than {@code maxMatches} documents
   */
  public ChangeBatch apply(List<DocumentChange> changes) {
    Map<DocumentId, Optional<Row>> next = null;
    for (DocumentChange change : changes) {
      if (change instanceof DocumentChange.Current current) {
        DocumentId id = query.requireDocument(current.version());
        evaluations++;
        next = noted(next, id, query.rowOf(id, current.version()), members.containsKey(id));
      } else {
        DocumentId id = ((DocumentChange.Removed) change).id();
        next = noted(next, id, Optional.empty(), members.containsKey(id));
      }
    }
    return commit(next);
  }

  /**
   * Applies blocks that each come, in the order of versions, after every version of its document
   * given so far: each block in the scope that has a document becomes that document's current
   * version; the others are skipped. For an authority committing new positions, and for a replica's
   * own appends.
   *
   * @throws IllegalArgumentException if a positioned block comes before the current version of a
   *     matching document (a lower position, or after a pending version), which shows the caller
   *     broke the precondition
   * @throws LimitExceededException as {@link #apply}
   */
  public ChangeBatch applyAppended(List<ParsedBlock> blocks) {
    Map<DocumentId, RowVersion> latest = blocks.size() > 1 ? new HashMap<>() : null;
    Map<DocumentId, Optional<Row>> next = null;
    for (ParsedBlock block : blocks) {
      Optional<DocumentId> found = query.documentOf(block);
      if (found.isEmpty()) {
        continue;
      }
      DocumentId id = found.get();
      Member member = members.get(id);
      RowVersion version = block.version();
      if (version.position().isAssigned()) { // a pending block comes after every version
        RowVersion before = latest != null && latest.containsKey(id) ? latest.get(id)
            : member == null ? null : member.row.version();
        if (before != null && !before.block().equals(version.block())
            && (before.pending() || version.position().compareTo(before.position()) < 0)) {
          throw new IllegalArgumentException("block " + version + " comes before " + before
              + ", the current version of document " + id + ", so it cannot be appended");
        }
      }
      if (latest != null) {
        latest.put(id, version);
      }
      evaluations++;
      next = noted(next, id, query.rowOf(id, block), member != null);
    }
    return commit(next);
  }

  /**
   * Notes the row a document has after the batch (empty: none), a later one winning; the map is made
   * on the first document that may change the result, so a batch that changes nothing makes none.
   *
   * @param member whether the document matches now, before the batch
   */
  private Map<DocumentId, Optional<Row>> noted(Map<DocumentId, Optional<Row>> next, DocumentId id, Optional<Row> row,
      boolean member) {
    if (row.isEmpty() && !member && (next == null || !next.containsKey(id))) {
      return next; // neither in the result nor noted: it stays out
    }
    Map<DocumentId, Optional<Row>> noted = next == null ? new LinkedHashMap<>() : next;
    noted.put(id, row);
    return noted;
  }

  /**
   * Replaces the whole state with the one {@code currentVersions} make, and returns the exact
   * difference: for a first snapshot, and after history was rewritten (a swap, a rollback, a
   * compaction below what the caller had).
   *
   * @param currentVersions the current version of every document in scope, at most one each
   * @throws IllegalArgumentException as {@link LiveQuery#evaluate}
   * @throws LimitExceededException if they match more than {@code maxMatches} documents
   */
  public ChangeBatch reset(Collection<ParsedBlock> currentVersions) {
    Set<DocumentId> documents = new HashSet<>();
    Map<DocumentId, Row> rows = new HashMap<>();
    for (ParsedBlock version : currentVersions) {
      DocumentId id = query.requireDocument(version);
      if (!documents.add(id)) {
        throw new IllegalArgumentException("two current versions of document " + id + ", the second " + version);
      }
      evaluations++;
      query.rowOf(id, version).ifPresent(row -> rows.put(id, row));
    }
    requireWithinLimit(rows.size());
    List<Row> before = window.rows();
    for (DocumentId id : members.keySet()) {
      if (!rows.containsKey(id)) {
        matchListener.unmatched(id);
      }
    }
    Set<DocumentId> matchedBefore = new HashSet<>(members.keySet());
    members.clear();
    window = newWindow();
    rows.forEach((id, row) -> {
      Member member = new Member(id, row);
      members.put(id, member);
      window.add(member);
      if (!matchedBefore.contains(id)) {
        matchListener.matched(id);
      }
    });
    return ChangeBatch.between(before, window.rows());
  }

  /**
   * Removes the matching documents whose current version is positioned below {@code floor}: every
   * version of such a document is below it, so compaction took them all. Reads every matching
   * document (compaction is rare).
   */
  public ChangeBatch removeBelow(Position floor) {
    List<DocumentChange> removals = new ArrayList<>();
    members.values().forEach(member -> {
      RowVersion version = member.row.version();
      if (!version.pending() && version.position().compareTo(floor) < 0) {
        removals.add(DocumentChange.removed(member.id));
      }
    });
    return apply(removals);
  }

  /**
   * The rows of the result, in the query's order: the first {@code limit} matching documents (all of
   * them, sorted now, without a limit).
   */
  public List<Row> snapshot() {
    return List.copyOf(window.rows());
  }

  /** How many rows the result holds (at most the limit). */
  public int size() {
    return window.shownCount();
  }

  /** How many documents match, within the limit or not. */
  public int matches() {
    return members.size();
  }

  /**
   * Checks the limit of matches, then takes each document's row after the batch ({@code next}, null
   * when nothing may change) into the result, and returns the net change.
   */
  private ChangeBatch commit(Map<DocumentId, Optional<Row>> next) {
    if (next == null) {
      return ChangeBatch.EMPTY;
    }
    long matches = members.size();
    for (Map.Entry<DocumentId, Optional<Row>> entry : next.entrySet()) {
      matches += (entry.getValue().isPresent() ? 1 : 0) - (members.containsKey(entry.getKey()) ? 1 : 0);
    }
    requireWithinLimit(matches);
    inBatch = true;
    try {
      for (Map.Entry<DocumentId, Optional<Row>> entry : next.entrySet()) {
        DocumentId id = entry.getKey();
        Member old = members.get(id);
        Row row = entry.getValue().orElse(null);
        if (old == null ? row == null : old.row.equals(row)) {
          continue;
        }
        if (old != null) {
          noteShown(old);
          window.remove(old);
          members.remove(id);
        }
        if (row != null) {
          Member member = new Member(id, row);
          members.put(id, member);
          window.add(member);
        }
        if (old == null) {
          matchListener.matched(id);
        } else if (row == null) {
          matchListener.unmatched(id);
        }
      }
      if (shownBefore == null) {
        return ChangeBatch.EMPTY;
      }
      ChangeBatch.Builder batch = new ChangeBatch.Builder();
      shownBefore.forEach((id, before) -> {
        Member now = members.get(id);
        batch.add(before, now != null && now.shown ? now.row : null);
      });
      return batch.build();
    } finally {
      inBatch = false;
      shownBefore = null;
    }
  }

  /**
   * Keeps the row {@code member} shows now, unless the batch already kept its document's; nothing
   * outside a batch ({@link #reset} compares whole snapshots instead).
   */
  private void noteShown(Member member) {
    if (!inBatch) {
      return;
    }
    if (shownBefore == null) {
      shownBefore = new HashMap<>();
    }
    if (!shownBefore.containsKey(member.id)) {
      shownBefore.put(member.id, member.shown ? member.row : null);
    }
  }

  private Window newWindow() {
    return query.limit().isPresent()
        ? new LimitedWindow(query.rowOrder(), query.limit().getAsInt(), this::noteShown, refillBroken)
        : new UnlimitedWindow(query.rowOrder(), members.values(), this::noteShown);
  }

  private void requireWithinLimit(long matches) {
    if (matches > maxMatches) {
      throw new LimitExceededException(MATCHES_SETTING, maxMatches, matches,
          "the documents matching live query " + query.fingerprint().substring(0, 12));
    }
  }

  /**
   * Breaks the window of a query with a limit on purpose (a removed row lets no other in), for tests
   * that prove their check fails.
   */
  void breakWindowRefill() {
    refillBroken = true;
    window = newWindow();
    members.values().forEach(window::add);
  }

  /** Comparisons of rows made so far. */
  long comparisons() {
    return window.comparisons();
  }
}
