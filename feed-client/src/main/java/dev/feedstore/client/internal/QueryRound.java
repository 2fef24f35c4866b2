package dev.feedstore.client.internal;

import dev.feedstore.client.HistoryGap;
import dev.feedstore.client.LiveQueryEvent;
import dev.feedstore.client.LocalState;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.query.DocumentId;
import dev.feedstore.core.query.DocumentKey;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.ParsedBlock;
import dev.feedstore.core.query.result.DocumentChange;
import dev.feedstore.core.store.DocumentVersions;
import dev.feedstore.core.store.StoreTransaction;
import dev.feedstore.core.sync.SpaceSync;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One round of a replica's live queries: the commits told since the last round, each query's
 * result brought up to them, and the events that say so. It runs in two steps so that a failure
 * changes no result: {@link #read} reads everything the round needs in one transaction that sees
 * exactly those commits; {@link #events} then changes the results, in memory, and makes the events.
 *
 * <p>Per space: a query not told its snapshot yet gets one; when a commit rewrote history (or met a
 * gap, or changed a policy), every query is read again and gets a reset; otherwise each gets the
 * changes of the documents the commits touched: their current versions read from the file, or, when
 * the commits only appended here, the appended blocks themselves (the newest versions of their
 * documents), with no read at all. Not thread-safe; runs on the listener thread.
 */
final class QueryRound {
  /** The queries with one space, scope and key share their current versions. */
  private record Group(Scope scope, DocumentKey key) {
    static Group of(LiveQuery query) {
      return new Group(query.scope(), query.key());
    }
  }

  private final long commit;
  private final long evaluatedAt;
  private final java.util.function.Function<SpaceId, UnpushableBlocks.Rules> refusals;
  private final boolean broken;
  private final Map<SpaceId, SpaceRound> spaces = new LinkedHashMap<>();
  private long blocksRead;
  /** The state {@link #state} made last. */
  private LocalState lastState;

  /**
   * @param commit the number of the last commit told
   * @param evaluatedAt the time of evaluation: the receive time of pending versions
   * @param refusals per space, what sync refuses to push now ({@link UnpushableBlocks}), read
   *     when the round is made, among the commits it takes
   * @param broken whether to take a sync step's blocks for their documents' newest versions, which
   *     is wrong ({@link QueryHub#breakOnPurpose})
   */
  QueryRound(List<Notice> notices, List<QueryRegistration> registrations, long commit, long evaluatedAt,
      java.util.function.Function<SpaceId, UnpushableBlocks.Rules> refusals, boolean broken) {
    this.broken = broken;
    this.commit = commit;
    this.evaluatedAt = evaluatedAt;
    this.refusals = refusals;
    for (QueryRegistration registration : registrations) {
      if (!registration.closed()) {
        SpaceId space = registration.query().space();
        SpaceRound round = spaces.get(space);
        if (round == null) {
          round = new SpaceRound(space);
          spaces.put(space, round);
        }
        round.registrations.add(registration);
      }
    }
    for (Notice notice : notices) {
      SpaceRound space = spaces.get(notice.space());
      if (space != null) {
        space.add(notice);
      }
    }
  }

  /** Whether the round reads the file; when not, {@link #events} may run without {@link #read}. */
  boolean needsRead() {
    return spaces.values().stream().anyMatch(SpaceRound::needsRead);
  }

  /** Reads what the round needs, in {@code tx}, which sees exactly the commits told. */
  void read(StoreTransaction tx) {
    for (SpaceRound space : spaces.values()) {
      if (space.needsRead()) {
        space.read(tx);
      }
    }
  }

  /** Brings every result up to the round's commits; returns the events to tell, in order. */
  List<Told> events() {
    List<Told> events = new ArrayList<>();
    spaces.values().forEach(space -> space.events(events));
    return events;
  }

  /** The state after the round's commits with {@code gap}: one value for the queries that share it. */
  private LocalState state(Optional<HistoryGap> gap) {
    if (lastState == null || !lastState.historyUnavailable().equals(gap)) {
      lastState = new LocalState(commit, gap);
    }
    return lastState;
  }

  /** The blocks the round read from the file. */
  long blocksRead() {
    return blocksRead;
  }

  /** An event and whom to tell. */
  record Told(QueryRegistration registration, LiveQueryEvent event) {}

  /** The part of the round about one space. */
  private final class SpaceRound {
    final SpaceId space;
    final List<QueryRegistration> registrations = new ArrayList<>();
    boolean rereadAll;
    final Set<BlockKey> changed = new LinkedHashSet<>();
    final List<DocumentVersions.Version> appended = new ArrayList<>();
    /** Read: per group, every current version (for snapshots and resets) or the touched documents' changes. */
    final Map<Group, List<ParsedBlock>> all = new HashMap<>();
    final Map<Group, List<DocumentChange>> touched = new HashMap<>();
    final Map<Scope, Optional<HistoryGap>> gaps = new HashMap<>();
    List<ParsedBlock> touchedBlocks;
    boolean read;
    final UnpushableBlocks.Rules rules;

    SpaceRound(SpaceId space) {
      this.space = space;
      this.rules = refusals.apply(space);
    }

    void add(Notice notice) {
      rereadAll |= notice.rereadAll();
      appended.addAll(notice.appended());
      notice.changes().blocks().values().forEach(changed::addAll);
    }

    boolean needsRead() {
      for (QueryRegistration registration : registrations) {
        if (registration.fresh() || rereadAll || !changed.isEmpty()) {
          return true;
        }
      }
      return false;
    }

    void read(StoreTransaction tx) {
      read = true;
      Map<Group, CurrentVersions> groups = new HashMap<>();
      UnpushableBlocks unpushable = new UnpushableBlocks(rules, SpaceSync.replicatedScope(tx, space));
      for (QueryRegistration registration : registrations) {
        LiveQuery query = registration.query();
        Group group = Group.of(query);
        CurrentVersions versions = groups.computeIfAbsent(group,
            g -> new CurrentVersions(tx.versions(), query, evaluatedAt, unpushable));
        gaps.computeIfAbsent(query.scope(), scope -> SpaceSync.historyUnavailable(tx, space, scope)
            .map(floor -> new HistoryGap(space, floor.value())));
        if (registration.fresh() || rereadAll) {
          all.computeIfAbsent(group, g -> versions.all());
        } else if (!touched.containsKey(group)) {
          if (touchedBlocks == null) {
            touchedBlocks = touchedBlocks(tx, versions);
          }
          Set<DocumentId> ids = new LinkedHashSet<>();
          touchedBlocks.forEach(block -> query.documentOf(block).ifPresent(ids::add));
          touched.put(group, versions.of(ids));
        }
      }
      groups.values().forEach(versions -> blocksRead += versions.blocksRead());
    }

    /** The blocks the commits stored, positioned or moved, as they are now, and the ones appended here. */
    private List<ParsedBlock> touchedBlocks(StoreTransaction tx, CurrentVersions versions) {
      Map<BlockKey, Block> stored = tx.blocks().findAll(space, changed);
      Set<FeedId> feeds = new LinkedHashSet<>();
      stored.keySet().forEach(key -> feeds.add(key.feedId()));
      Map<FeedId, Optional<Namespace>> namespaces = tx.feeds().namespaces(space, feeds);
      List<ParsedBlock> blocks = new ArrayList<>();
      stored.values().forEach(block -> blocks.add(versions.parse(new DocumentVersions.Version(block,
          namespaces.getOrDefault(block.feedId(), Optional.empty())))));
      appended.forEach(version -> blocks.add(versions.parse(version)));
      return blocks;
    }

    void events(List<Told> events) {
      List<ParsedBlock> appendedBlocks = null;
      boolean grouped = !all.isEmpty() || !touched.isEmpty();
      for (QueryRegistration registration : registrations) {
        LiveQuery query = registration.query();
        Group group = grouped ? Group.of(query) : null;
        LocalState now = state(read ? gaps.get(query.scope()) : registration.state().historyUnavailable());
        try {
          if (all.containsKey(group) && (registration.fresh() || rereadAll)) {
            events.add(new Told(registration, registration.reread(all.get(group), now)));
          } else if (touched.containsKey(group) && broken) {
            List<DocumentChange> newest = touchedBlocks.stream().filter(block -> query.documentOf(block).isPresent())
                .map(DocumentChange::current).toList();
            registration.changed(registration.result().apply(newest), now)
                .ifPresent(event -> events.add(new Told(registration, event)));
          } else if (touched.containsKey(group)) {
            registration.changed(registration.result().apply(touched.get(group)), now)
                .ifPresent(event -> events.add(new Told(registration, event)));
          } else if (!appended.isEmpty()) {
            // Only appended here, each block within what a push carries (others are told as changes).
            if (appendedBlocks == null) {
              appendedBlocks = appended.stream()
                  .map(version -> ParsedBlock.of(version.block(), version.namespace(), evaluatedAt)).toList();
            }
            registration.changed(registration.result().applyAppended(appendedBlocks), now)
                .ifPresent(event -> events.add(new Told(registration, event)));
          }
        } catch (IllegalArgumentException e) { // a LimitExceededException over the matches, or a block out of order
          events.add(new Told(registration, registration.ended(e)));
        }
      }
    }
  }
}
