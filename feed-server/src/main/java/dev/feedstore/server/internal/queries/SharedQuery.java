package dev.feedstore.server.internal.queries;

import dev.feedstore.core.Position;
import dev.feedstore.core.query.DocumentId;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.ParsedBlock;
import dev.feedstore.core.query.Row;
import dev.feedstore.core.query.result.ChangeBatch;
import dev.feedstore.core.query.result.LiveResult;
import dev.feedstore.server.internal.live.LiveStream;
import dev.feedstore.server.internal.spaces.Encodings;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The one membership state of a canonical query in a space, shared by all its subscribers: the
 * query's {@link LiveResult} as of a position ({@link #applied}) and the space's floor it was
 * computed against, and its most recent change batches ({@link RecentChanges}), which subscribers
 * send in turn. Its {@link SpaceQueries} applies each committed range to it once; subscribers
 * {@link #view} its state to start from, and read its batches by number ({@link #next}).
 *
 * <p>A shared query ends ({@link #end}) when its last subscriber leaves, when it goes past a limit,
 * or when the space's history went back under it: its subscribers see that and attach to a fresh
 * one (after a history that went back, with a reset) or end with the failure.
 *
 * <p>Thread-safe: the methods take the query's lock briefly, but for what a following subscriber asks
 * at every batch ({@link #ended}, and {@link #batchFrom} when none follows), which
 * reads volatile fields; none blocks on the store.
 */
final class SharedQuery {
  /** What a subscriber starts from: the rows as of {@code position}, and the number of the next batch. */
  record View(List<Row> rows, ResumeToken at, long nextSeq) {}

  /** What follows a batch number: a batch, nothing yet (the query stands at {@code at}), or a batch no longer kept. */
  record Next(QueryBatch batch, boolean behind, ResumeToken at) {}

  private final LiveQuery query;
  private final String hash;
  private final String serverToken;
  /** Guarded by lock. */
  private final Set<QuerySubscription> subscribers = new HashSet<>();
  /**
   * Written under lock, read without it: the subscribers' streams, made again at each join and
   * leave, so that a batch signals them from one array instead of walking a set.
   */
  private volatile LiveStream[] streams = new LiveStream[0];
  private final Object lock = new Object();
  /** Guarded by lock. */
  private final LiveResult result;
  /** Guarded by lock. */
  private final RecentChanges recent;
  /** Guarded by lock. */
  private long applied;
  /** Guarded by lock. */
  private long floor;
  /** Rows of the kept batches one merged batch brings together at most ({@link #batchFrom}). */
  static final int MERGED_ROWS = 256;

  /**
   * Guarded by lock: the batches merged for subscribers behind by several batches, by the number of
   * their first; emptied when a batch is added.
   */
  private final Map<Long, QueryBatch> merged = new HashMap<>();
  /** Written under lock, read without it: why the query ended, null while it runs. */
  private volatile RuntimeException ended;
  /**
   * Written under lock, read without it: the number of the next batch ({@code recent.nextSeq()}),
   * which tells a subscriber that nothing follows what it sent without taking the lock.
   */
  private volatile long nextSeq;

  /**
   * A query whose state is loaded as of {@code loaded}.
   *
   * @param maxMatches the documents it may match ({@code live-query-matches})
   * @param recentRows the rows its recent batches may hold ({@code live-query-recent-rows})
   * @throws dev.feedstore.core.LimitExceededException if the loaded versions match more than {@code maxMatches}
   */
  SharedQuery(LiveQuery query, String serverToken, QueryStorage.Loaded loaded, int maxMatches, long recentRows) {
    this.query = query;
    this.hash = ResumeToken.hashOf(query.fingerprint());
    this.serverToken = serverToken;
    this.result = new LiveResult(query, maxMatches);
    this.result.reset(loaded.current());
    this.recent = new RecentChanges(recentRows);
    this.applied = loaded.position();
    this.floor = loaded.floor();
  }

  LiveQuery query() {
    return query;
  }

  /** The short hash resume tokens of this query carry. */
  String hash() {
    return hash;
  }

  /** The position the state is as of. */
  long applied() {
    synchronized (lock) {
      return applied;
    }
  }

  /** Adds a subscriber, to be signalled after each batch; false when the query has ended. */
  boolean join(QuerySubscription subscriber) {
    synchronized (lock) {
      if (ended != null) {
        return false;
      }
      if (subscribers.add(subscriber)) {
        streams = streamsOf(subscribers);
      }
      return true;
    }
  }

  /** Removes a subscriber; true when it was the last. */
  boolean leave(QuerySubscription subscriber) {
    synchronized (lock) {
      if (subscribers.remove(subscriber)) {
        streams = streamsOf(subscribers);
      }
      return subscribers.isEmpty();
    }
  }

  int subscriberCount() {
    return streams.length;
  }

  /** The state now, for a subscriber to start from; null when the query has ended. */
  View view() {
    synchronized (lock) {
      return ended != null ? null : new View(result.snapshot(), token(applied), recent.nextSeq());
    }
  }

  /** The batch numbered {@code seq}, or what stands in for it; null when the query has ended. */
  Next next(long seq) {
    synchronized (lock) {
      if (ended != null) {
        return null;
      }
      RecentChanges.Next next = recent.at(seq);
      return new Next(next.batch(), next.behind(), token(applied));
    }
  }

  /**
   * What a subscriber whose next batch is {@code seq} sends next, when batch {@code seq} is kept: that
   * batch when it is the newest; else its net change with the kept batches that follow it (as many
   * as hold {@value #MERGED_ROWS} rows together), made once for every subscriber that
   * stands at {@code seq} and encoded once for them, as a Watch behind by several commits sends them
   * in one batch. Its {@link QueryBatch#seq} is the number of the last batch it holds. Null when
   * batch {@code seq} is not kept (none yet, no longer kept, or the query ended: {@link #next} says
   * which). Allocates nothing when none follows: what a subscriber that is following asks at each
   * batch.
   */
  QueryBatch batchFrom(long seq) {
    if (seq >= nextSeq) {
      return null;
    }
    synchronized (lock) {
      if (ended != null) {
        return null;
      }
      QueryBatch first = recent.batch(seq);
      if (first == null || seq == nextSeq - 1 || first.rows() >= MERGED_ROWS) {
        return first;
      }
      QueryBatch known = merged.get(seq);
      if (known != null) {
        return known;
      }
      QueryBatch last = first;
      ChangeBatch changes = first.changes();
      long rows = first.rows();
      for (long next = seq + 1; next < nextSeq; next++) {
        QueryBatch batch = recent.batch(next);
        rows += batch.rows();
        if (rows > MERGED_ROWS) {
          break;
        }
        changes = changes.then(batch.changes());
        last = batch;
      }
      if (last == first) {
        return first;
      }
      QueryBatch made = new QueryBatch(last.seq(), last.stamp(), changes, new Encodings());
      merged.put(seq, made);
      return made;
    }
  }

  /** Why the query ended, or null while it runs. */
  RuntimeException ended() {
    return ended;
  }

  /**
   * Tells {@code listener} every document the query matches now ({@link LiveResult.MatchListener#matched}),
   * and from now on each document that starts or stops matching, on the thread that {@linkplain
   * #apply applies}: for an index of queries by the documents they match.
   */
  void followMatches(LiveResult.MatchListener listener) {
    synchronized (lock) {
      result.forEachMatch(listener::matched);
      result.listenToMatches(listener);
    }
  }

  /** Stops telling the listener {@link #followMatches} gave, and gives {@code unmatched} every document matched now. */
  void stopFollowingMatches(Consumer<DocumentId> unmatched) {
    synchronized (lock) {
      result.listenToMatches(null);
      result.forEachMatch(unmatched);
    }
  }

  /**
   * Applies the blocks committed in the space up to {@code end} that can change the query's result
   * (in position order; those at or below {@link #applied} are skipped: any others committed up to
   * {@code end} change nothing) and then the floor {@code spaceFloor}, and keeps the net change as
   * the next batches. Signals the subscribers when a batch was added. A batch that goes past a limit
   * ends the query with that failure.
   *
   * @return how many blocks the query evaluated
   */
  int apply(List<ParsedBlock> blocks, long end, long spaceFloor) {
    boolean added = false;
    int evaluated = 0;
    synchronized (lock) {
      if (ended != null) {
        return 0;
      }
      try {
        if (end > applied) {
          List<ParsedBlock> after = blocks;
          if (!blocks.isEmpty() && blocks.get(0).block().position().value() <= applied) {
            after = new ArrayList<>(blocks.size());
            for (ParsedBlock block : blocks) {
              if (block.block().position().value() > applied) {
                after.add(block);
              }
            }
          }
          evaluated = after.size();
          ChangeBatch changes = result.applyAppended(after);
          applied = end;
          added |= keep(changes);
        }
        if (spaceFloor > floor) {
          // Every block at or below the floor is gone: a document whose current version was is gone too.
          ChangeBatch changes = result.removeBelow(Position.of(spaceFloor + 1));
          floor = spaceFloor;
          added |= keep(changes);
        }
      } catch (RuntimeException e) {
        ended = e;
        added = true;
      }
    }
    if (added) {
      signalSubscribers();
    }
    return evaluated;
  }

  /** Guarded by lock. */
  private boolean keep(ChangeBatch changes) {
    if (changes.isEmpty()) {
      return false;
    }
    recent.add(token(applied), changes);
    nextSeq = recent.nextSeq();
    merged.clear();
    return true;
  }

  /** Ends the query because of {@code reason} (the first reason stays) and signals its subscribers. */
  void end(RuntimeException reason) {
    synchronized (lock) {
      if (ended == null) {
        ended = reason;
      }
      recent.clear();
      merged.clear();
    }
    signalSubscribers();
  }

  /** Signals every subscriber, their drains handed to the executor together. */
  private void signalSubscribers() {
    LiveStream.signalAll(Arrays.asList(streams));
  }

  private static LiveStream[] streamsOf(Set<QuerySubscription> subscribers) {
    LiveStream[] all = new LiveStream[subscribers.size()];
    int i = 0;
    for (QuerySubscription subscriber : subscribers) {
      all[i++] = subscriber.stream();
    }
    return all;
  }

  /** Guarded by lock. */
  private ResumeToken token(long position) {
    return new ResumeToken(position, floor, hash, serverToken);
  }
}
