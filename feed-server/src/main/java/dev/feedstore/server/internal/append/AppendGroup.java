package dev.feedstore.server.internal.append;

import static dev.feedstore.server.settings.ServerSettings.FEEDS_PER_SPACE;

import dev.feedstore.core.store.AuthorityStore;
import dev.feedstore.core.store.AuthorityTransaction;
import dev.feedstore.core.store.SpaceAppend;
import dev.feedstore.core.store.StorageFaultException;
import dev.feedstore.server.internal.errors.EarlierAppendRefusedException;
import dev.feedstore.server.internal.spaces.SpaceState;
import dev.feedstore.server.internal.spaces.Spaces;
import dev.feedstore.server.settings.ServerSettings;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Commits a group of appends formed by the {@link AppendQueue} in one write transaction of the
 * store: one commit, so one fsync, for the whole group, whatever the store. The appends of one space
 * run together ({@link SpaceRun}), and all spaces in one call of the store (one round trip before the
 * commit on PostgreSQL: {@link AuthorityTransaction#append}); each append still gets its own positions,
 * consecutive in its space, after those of the appends before it in the group; the appends of one
 * space keep their arrival order. The group is ordered by space id, so a transaction takes the
 * counter rows of its spaces in one global order and two authorities sharing a store (PostgreSQL)
 * cannot deadlock on them. A group that only the store's own checks could refuse (keys held, the
 * feed limit) goes first as one {@link AuthorityStore#appendAllNew}, whose commit on PostgreSQL
 * comes in the same round trip; a refusal there stored nothing, and the group runs as below. A store
 * without round trips (SQLite) declines that call at once, and its groups run only as below.
 *
 * <p>Each append is all or nothing on its own. If the work fails for one append (a sequence
 * conflict, a limit, keys stored already, feeds its caller may not write to, blocks for a stream
 * that is over: {@link SpaceRun#culprit}
 * names it; the store's step they all share counts as the group's first), the transaction rolls back
 * and the group runs again without it; the appends set aside run after the group, each in a transaction of its own, exactly as a lone
 * append does, which gives them their own answer (their error, or positions after the group's). A
 * failure of the storage itself ({@link StorageFaultException}: disk full, read-only file, I/O
 * error, damaged file), or one no append's work raised (the commit), fails every append of the
 * group: nothing of it was committed.
 *
 * <p>An append that {@linkplain PendingAppend#follow follows} earlier ones of its writer is set aside with the one it follows, runs after it, and fails with {@link
 * EarlierAppendRefusedException}, storing nothing, if that one failed, in this group or before.
 *
 * <p>The blocks of one group are stamped with one receive time, read from the clock once per group
 * (raised per space to the last one handed out there, {@link
 * dev.feedstore.core.store.BlockLog#stampReceipt}), so appends set aside and run alone share it.
 *
 * <p>After the commit the appends' blocks are recorded in their spaces' live tails in position
 * order, before the next group is formed; watchers are signalled after the group's callers are
 * told.
 *
 * <p>Thread-safe as the queue uses it: one group at a time.
 */
public final class AppendGroup implements AppendQueue.Committer {
  private static final Comparator<PendingAppend> BY_SPACE =
      Comparator.comparing(append -> append.space().spaceId().value());

  private final AuthorityStore<?> store;
  private final Spaces spaces;
  private final ServerSettings settings;
  private final ClosedFeeds closedFeeds;
  private final Clock clock;

  public AppendGroup(AuthorityStore<?> store, Spaces spaces, ServerSettings settings, ClosedFeeds closedFeeds, Clock clock) {
    this.store = store;
    this.spaces = spaces;
    this.settings = settings;
    this.closedFeeds = closedFeeds;
    this.clock = clock;
  }

  /** An append set aside from a group, to run alone; {@code careful} when its keys were stored already. */
  private record Aside(PendingAppend append, boolean careful) {}

  @Override
  public Runnable commit(List<PendingAppend> group) {
    long now = clock.millis();
    List<PendingAppend> together = new ArrayList<>(group.size());
    for (PendingAppend append : group) {
      EarlierAppendRefusedException refused = afterRefused(append);
      if (refused == null) {
        together.add(append);
      } else {
        append.failed(refused);
      }
    }
    together.sort(BY_SPACE); // stable: one space's appends keep their arrival order
    List<Aside> aside = new ArrayList<>();
    Set<SpaceState> published = new LinkedHashSet<>();
    if (settledAllNew(together, now, published)) {
      together = List.of();
    }
    while (together.size() > 1) {
      int[] failing = {-1};
      List<PendingAppend> attempt = together;
      try {
        List<AppendWork.Outcome> outcomes = store.write(tx -> runAll(tx, attempt, failing, now));
        for (int i = 0; i < attempt.size(); i++) {
          publish(attempt.get(i), outcomes.get(i));
          published.add(attempt.get(i).space());
        }
        together = List.of();
      } catch (RuntimeException e) {
        if (failing[0] < 0 || e instanceof StorageFaultException) {
          attempt.forEach(append -> append.failed(e));
          together = List.of();
        } else {
          PendingAppend culprit = attempt.get(failing[0]);
          aside.add(new Aside(culprit, e instanceof SpaceRun.NotAllNew));
          together = new ArrayList<>(attempt);
          together.remove(failing[0]);
          setAsideFollowers(culprit, together, aside);
        }
      }
    }
    // Alone, in arrival order, so that an append runs after those it follows.
    aside.sort(Comparator.comparingInt(one -> indexOf(group, one.append())));
    if (together.size() == 1) {
      aside.add(0, new Aside(together.get(0), false));
    }
    for (Aside one : aside) {
      EarlierAppendRefusedException refused = afterRefused(one.append());
      if (refused != null) {
        one.append().failed(refused);
        continue;
      }
      try {
        publish(one.append(), alone(one.append(), one.careful(), now));
        published.add(one.append().space());
      } catch (RuntimeException e) {
        one.append().failed(e);
      }
    }
    return () -> published.forEach(space -> space.tail().signalWatchers());
  }

  /**
   * Moves the appends of {@code together} that follow {@code culprit} (or follow one that does) to
   * {@code aside}: they must not commit before it, nor at all if it fails.
   */
  private static void setAsideFollowers(PendingAppend culprit, List<PendingAppend> together, List<Aside> aside) {
    Set<PendingAppend> held = new HashSet<>(List.of(culprit));
    boolean moved = true;
    while (moved) {
      moved = false;
      for (Iterator<PendingAppend> it = together.iterator(); it.hasNext(); ) {
        PendingAppend append = it.next();
        if (append.follows().stream().anyMatch(held::contains)) {
          held.add(append);
          aside.add(new Aside(append, false));
          it.remove();
          moved = true;
        }
      }
    }
  }

  /** The refusal of an append that follows one that failed, or null when none of those it follows failed. */
  private static EarlierAppendRefusedException afterRefused(PendingAppend append) {
    Set<String> feeds = new LinkedHashSet<>();
    for (PendingAppend earlier : append.follows()) {
      if (earlier.hasFailed()) {
        Set<String> shared = new LinkedHashSet<>(earlier.feeds());
        shared.retainAll(append.feeds());
        feeds.addAll(shared);
      }
    }
    return feeds.isEmpty() ? null : new EarlierAppendRefusedException(feeds);
  }

  private static int indexOf(List<PendingAppend> group, PendingAppend append) {
    for (int i = 0; i < group.size(); i++) {
      if (group.get(i) == append) {
        return i;
      }
    }
    return group.size();
  }

  /**
   * Commits the whole group in the store's one write that stores only new keys within the feed limit
   * ({@link AuthorityStore#appendAllNew}, which on PostgreSQL commits in the round trip of the append
   * itself), when nothing but that could refuse one of its appends: every space is stored already,
   * every caller may write to every feed of its space, and no feed of these spaces can be closed.
   * Settles every append and returns true when it committed, or when the storage failed (then
   * nothing committed); returns false, having stored nothing, when the group needs its own
   * transaction to tell which append fails, or when the store declined the call.
   */
  private boolean settledAllNew(List<PendingAppend> appends, long now, Set<SpaceState> published) {
    if (appends.isEmpty()) {
      return false;
    }
    for (PendingAppend append : appends) {
      if (!append.space().stored() || append.writeCheck() != FeedWriteCheck.ANY
          || closedFeeds.mayHold(append.space().spaceId())) {
        return false;
      }
    }
    List<SpaceRun> runs = new ArrayList<>();
    List<Integer> starts = spaceStarts(appends);
    for (int i = 0; i < starts.size(); i++) {
      runs.add(run(appends, starts, i, now));
    }
    Optional<List<SpaceAppend.Stored>> stored;
    try {
      stored = store.appendAllNew(runs.stream().map(SpaceRun::request).toList(), settings.get(FEEDS_PER_SPACE));
    } catch (StorageFaultException e) {
      appends.forEach(append -> append.failed(e));
      return true;
    } catch (RuntimeException e) {
      return false; // nothing committed: the group's transaction tells whose failure it was
    }
    if (stored.isEmpty()) {
      return false;
    }
    List<AppendWork.Outcome> outcomes = new ArrayList<>(appends.size());
    for (int i = 0; i < runs.size(); i++) {
      outcomes.addAll(runs.get(i).checked(stored.get().get(i)));
    }
    for (int i = 0; i < appends.size(); i++) {
      publish(appends.get(i), outcomes.get(i));
      published.add(appends.get(i).space());
    }
    return true;
  }

  /** Where the appends of each space start in {@code appends}, which are ordered by space. */
  private static List<Integer> spaceStarts(List<PendingAppend> appends) {
    List<Integer> starts = new ArrayList<>();
    for (int i = 0; i < appends.size(); i++) {
      if (i == 0 || !appends.get(i).space().spaceId().equals(appends.get(i - 1).space().spaceId())) {
        starts.add(i);
      }
    }
    return starts;
  }

  /** The run of the {@code index}th space of {@code appends}. */
  private SpaceRun run(List<PendingAppend> appends, List<Integer> starts, int index, long now) {
    int end = index + 1 < starts.size() ? starts.get(index + 1) : appends.size();
    return new SpaceRun(appends.get(starts.get(index)).space().spaceId(), appends.subList(starts.get(index), end),
        settings.get(FEEDS_PER_SPACE), closedFeeds, now);
  }

  /**
   * Runs the appends in one transaction, those of one space together, all spaces in one {@link
   * AuthorityTransaction#append}; on a failure notes whose it was and rethrows it unchanged.
   */
  private List<AppendWork.Outcome> runAll(AuthorityTransaction tx, List<PendingAppend> appends, int[] failing,
      long now) {
    List<SpaceRun> runs = new ArrayList<>();
    List<Integer> starts = spaceStarts(appends);
    for (int i = 0; i < starts.size(); i++) {
      try {
        spaces.admit(tx, appends.get(starts.get(i)).space());
      } catch (RuntimeException e) {
        failing[0] = starts.get(i);
        throw e;
      }
      runs.add(run(appends, starts, i, now));
    }
    List<SpaceAppend.Stored> stored;
    try {
      stored = tx.append(runs.stream().map(SpaceRun::request).toList());
    } catch (RuntimeException e) {
      failing[0] = 0;
      throw e;
    }
    List<AppendWork.Outcome> outcomes = new ArrayList<>(appends.size());
    for (int i = 0; i < runs.size(); i++) {
      try {
        outcomes.addAll(runs.get(i).outcomes(tx, stored.get(i)));
      } catch (RuntimeException e) {
        failing[0] = starts.get(i) + runs.get(i).culprit();
        throw e;
      }
    }
    return outcomes;
  }

  /**
   * One append in a transaction of its own: optimistic first (every block new), then, if some keys
   * are stored already, block by block.
   */
  private AppendWork.Outcome alone(PendingAppend append, boolean careful, long now) {
    SpaceState space = append.space();
    if (!careful) {
      try {
        return store.write(tx -> {
          spaces.admit(tx, space);
          return new SpaceRun(space.spaceId(), List.of(append), settings.get(FEEDS_PER_SPACE), closedFeeds, now)
              .run(tx).get(0);
        });
      } catch (SpaceRun.NotAllNew e) {
        // Re-pushed blocks: the optimistic transaction rolled back; store them one by one.
      }
    }
    AppendWork work = new AppendWork(space.spaceId(), append.namespace(), append.blocks(), append.writeCheck(),
        settings.get(FEEDS_PER_SPACE), closedFeeds, now);
    return store.write(tx -> {
      spaces.admit(tx, space);
      return work.run(tx);
    });
  }

  /** After the append's transaction committed: settles it and records its blocks in the space's tail. */
  private void publish(PendingAppend append, AppendWork.Outcome outcome) {
    SpaceState space = append.space();
    spaces.stored(space);
    space.tail().record(outcome.added(), outcome.chains(), outcome.namespaces(), outcome.nextPosition() - 1);
    append.committed(outcome);
  }
}
