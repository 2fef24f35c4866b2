package dev.feedstore.server.internal.queries;

import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.ParsedBlock;
import dev.feedstore.server.internal.errors.HistoryRolledBackException;
import dev.feedstore.server.internal.errors.ShuttingDownException;
import dev.feedstore.server.internal.live.SerialDrain;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import dev.feedstore.server.internal.spaces.SpaceState;
import dev.feedstore.server.internal.spaces.SpaceTail;
import dev.feedstore.server.internal.spaces.TailEntry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.LongAdder;

/**
 * The live queries of one space: one {@link SharedQuery} per canonical query (its JSON form), and
 * the one evaluation that feeds them. Registered with the space's {@link SpaceTail} while it has
 * queries, it reads each committed range once (from the tail's recent blocks, or from storage when
 * they no longer reach back: {@link QueryStorage#committedAfter}), whole commits only, parses each
 * block once ({@link ParsedBlock}) and applies the range to every shared query, which keeps the net
 * change as its next batch: each query evaluates only the blocks of the range that can change its
 * result ({@link QueryIndex}). A query evaluates the blocks after its own position only, so a query
 * loaded later than the others joins without a gap or a repeat. A space whose history went back
 * ends its queries with a {@link HistoryRolledBackException}: their subscribers start again on
 * fresh ones, with a reset.
 *
 * <p>Thread-safe. The evaluation runs serially on the live executor; {@link #attach} blocks on the
 * store when it loads a query.
 */
final class SpaceQueries implements SpaceTail.Watcher {
  private final SpaceState space;
  private final QueryStorage storage;
  private final BlockParses parses;
  private final Clock clock;
  private final RateLimitedLog failures;
  private final int maxMatches;
  private final long recentRows;
  private final SerialDrain drain;
  private final Object lock = new Object();
  /** Guarded by lock: the running shared queries by canonical JSON. */
  private final Map<String, SharedQuery> queries = new HashMap<>();
  /** Guarded by lock: how many times {@link #queries} changed, so that the evaluation sees when to index it again. */
  private long queriesChanged;
  /** Confined to the evaluation. */
  private final QueryIndex index = new QueryIndex();
  /** Confined to the evaluation: {@link #queriesChanged} as the index last took it. */
  private long indexed = -1;
  /** Blocks handed to a query to evaluate, counted for every query. */
  private final LongAdder evaluations;
  /** Held while a query is loaded, so that subscribers of one query arriving together load it once. */
  private final Object loading = new Object();
  /** Blocks applied per evaluation at most (whole commits: a larger commit is read whole). */
  static final int READ_BLOCKS = QueryStorage.CHUNK;

  SpaceQueries(SpaceState space, QueryStorage storage, BlockParses parses, LongAdder evaluations, Executor executor,
      Clock clock, RateLimitedLog failures, int maxMatches, long recentRows) {
    this.space = space;
    this.evaluations = evaluations;
    this.storage = storage;
    this.parses = parses;
    this.clock = clock;
    this.failures = failures;
    this.maxMatches = maxMatches;
    this.recentRows = recentRows;
    this.drain = new SerialDrain(executor, this::evaluate, () -> endAll(new ShuttingDownException()));
  }

  SpaceState space() {
    return space;
  }

  /**
   * The shared query of {@code query}, with {@code subscriber} joined to it: the running one, or one
   * loaded from storage now.
   *
   * @throws dev.feedstore.core.LimitExceededException if a new query matches more than {@code
   *     live-query-matches} documents
   */
  SharedQuery attach(LiveQuery query, QuerySubscription subscriber) {
    String json = query.toJson();
    SharedQuery found = joinRunning(json, subscriber);
    if (found != null) {
      return found;
    }
    synchronized (loading) {
      found = joinRunning(json, subscriber);
      if (found != null) {
        return found;
      }
      QueryStorage.Loaded loaded = storage.load(query);
      space.raiseFloor(loaded.floor());
      SharedQuery shared = new SharedQuery(query, space.token().value(), loaded, maxMatches, recentRows);
      shared.join(subscriber);
      synchronized (lock) {
        if (queries.isEmpty()) {
          space.tail().register(this);
        }
        queries.put(json, shared);
        queriesChanged++;
      }
      drain.schedule(); // commits since the load
      return shared;
    }
  }

  private SharedQuery joinRunning(String json, QuerySubscription subscriber) {
    synchronized (lock) {
      SharedQuery running = queries.get(json);
      return running != null && running.join(subscriber) ? running : null;
    }
  }

  /** {@code subscriber} leaves {@code shared}; a query without subscribers ends. */
  void detach(SharedQuery shared, QuerySubscription subscriber) {
    synchronized (lock) {
      if (!shared.leave(subscriber)) {
        return;
      }
      if (queries.remove(shared.query().toJson(), shared)) {
        queriesChanged++;
        if (queries.isEmpty()) {
          space.tail().unregister(this);
        }
      }
    }
    shared.end(new ShuttingDownException());
  }

  /** How many shared queries run. */
  int sharedCount() {
    synchronized (lock) {
      return queries.size();
    }
  }

  @Override
  public void signal() {
    drain.schedule();
  }

  @Override
  public void historyWentBack(long highest) {
    endAll(new HistoryRolledBackException(space.spaceId(), highest));
  }

  /** Ends every running query because of {@code reason}; later subscribers load fresh ones. */
  private void endAll(RuntimeException reason) {
    List<SharedQuery> ended;
    synchronized (lock) {
      ended = new ArrayList<>(queries.values());
      if (!queries.isEmpty()) {
        queries.clear();
        queriesChanged++;
        space.tail().unregister(this);
      }
    }
    ended.forEach(query -> query.end(reason));
  }

  /** One evaluation: the next committed range applied to every query; true when more is committed. */
  private boolean evaluate() {
    List<SharedQuery> running;
    long changed;
    synchronized (lock) {
      running = new ArrayList<>(queries.values());
      changed = queriesChanged;
    }
    if (changed != indexed) {
      index.holdExactly(running);
      indexed = changed;
    }
    if (running.isEmpty()) {
      return false;
    }
    try {
      long from = Long.MAX_VALUE;
      for (SharedQuery query : running) {
        from = Math.min(from, query.applied());
      }
      SpaceTail tail = space.tail();
      if (from >= tail.committed()) {
        running.forEach(query -> query.apply(List.of(), 0, space.floor()));
        return false;
      }
      List<ParsedBlock> blocks;
      long end;
      SpaceTail.Slice slice = tail.read(from, Integer.MAX_VALUE, Long.MAX_VALUE);
      if (slice.behind() || slice.entries().isEmpty()) {
        QueryStorage.Committed committed = storage.committedAfter(space.spaceId(), from, READ_BLOCKS);
        space.raiseFloor(committed.floor());
        blocks = committed.blocks();
        end = committed.end();
      } else {
        long evaluatedAt = clock.millis();
        blocks = new ArrayList<>(slice.entries().size());
        for (TailEntry entry : slice.entries()) {
          blocks.add(parses.of(entry.block(), entry.namespace(), evaluatedAt));
        }
        end = slice.entries().get(slice.entries().size() - 1).position();
      }
      long floor = space.floor();
      index.route(blocks);
      long evaluated = 0;
      for (SharedQuery query : running) {
        evaluated += query.apply(index.blocksFor(query, blocks), end, floor);
      }
      evaluations.add(evaluated);
      return end < tail.committed();
    } catch (RuntimeException e) {
      failures.log("live queries of space " + space.spaceId() + " failed", e);
      endAll(e);
      return false;
    }
  }
}
