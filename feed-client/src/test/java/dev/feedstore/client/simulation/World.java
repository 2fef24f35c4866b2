package dev.feedstore.client.simulation;

import static dev.feedstore.server.settings.ServerSettings.BLOCKS_PER_APPEND;
import static dev.feedstore.server.settings.ServerSettings.BLOCK_BYTES;
import static dev.feedstore.server.settings.ServerSettings.MAX_MESSAGE_BYTES;
import static dev.feedstore.server.settings.ServerSettings.QUERY_LIMIT;
import static dev.feedstore.server.settings.ServerSettings.WATCH_BATCH_BLOCKS;

import dev.feedstore.client.internal.ClientAccess;
import dev.feedstore.client.Replica;
import dev.feedstore.client.ReplicaStores;
import dev.feedstore.client.internal.GrpcAuthority;
import dev.feedstore.core.ActorId;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Replication;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.FeedStore;
import dev.feedstore.core.store.StorageFaultException;
import dev.feedstore.core.sync.AppendReply;
import dev.feedstore.core.sync.AuthorityException;
import dev.feedstore.core.sync.AuthorityLimitException;
import dev.feedstore.core.sync.CompactedHistoryException;
import dev.feedstore.core.sync.PullPage;
import dev.feedstore.core.sync.PullTicket;
import dev.feedstore.core.sync.PushBatch;
import dev.feedstore.core.sync.SequenceConflictException;
import dev.feedstore.core.sync.SpaceSync;
import dev.feedstore.core.sync.SyncStep;
import dev.feedstore.proto.v1.CompactRequest;
import dev.feedstore.proto.v1.DurableSubscription;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.ListSubscriptionsRequest;
import dev.feedstore.server.FeedServer;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.sqlite.SqliteFeedStore;
import dev.feedstore.sqlite.SqliteSettings;
import dev.feedstore.testing.DatabaseFiles;
import dev.feedstore.testing.FaultyFeedStore;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * The world of one schedule: a real position authority (feed-server over SQLite, in-process gRPC)
 * and real replicas (SQLite files), driven one operation at a time on the calling thread, so that a
 * schedule always runs the same way. Every store is wrapped in a {@link FaultyFeedStore}, so that
 * a schedule can make its commits fail (a storage fault injected at commit, the same way every run,
 * where a real full disk would not be). Not thread-safe.
 */
final class World implements AutoCloseable {
  static final SpaceId SPACE = SpaceId.of("sim");
  static final Namespace SHARED = Namespace.of("a");
  static final Namespace OTHER = Namespace.of("b");
  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
  /** The replicas' time of evaluation of live queries: their clock, which stands still. */
  static final long EVALUATED_AT = CLOCK.millis();
  private static final SqliteSettings FAST = SqliteSettings.DEFAULTS.withSynchronous(SqliteSettings.Synchronous.NORMAL);
  /**
   * The limits a schedule may restart the authority with: the defaults, small messages and blocks,
   * small batches, small pages. Blocks of {@link Op.AppendLarge} are over some of them.
   */
  static final List<ServerSettings> LIMITS = List.of(
      ServerSettings.DEFAULTS,
      ServerSettings.newBuilder().set(MAX_MESSAGE_BYTES, 8_192).set(BLOCK_BYTES, 4_096).set(BLOCKS_PER_APPEND, 3)
          .build(),
      ServerSettings.newBuilder().set(BLOCKS_PER_APPEND, 2).build(),
      ServerSettings.newBuilder().set(MAX_MESSAGE_BYTES, 20_000).set(BLOCK_BYTES, 6_000).set(BLOCKS_PER_APPEND, 4)
          .set(QUERY_LIMIT, 5).set(WATCH_BATCH_BLOCKS, 5).build());

  final Path dir;
  final FeedId[] feeds = new FeedId[ScheduleGenerator.FEEDS];
  final Stats stats;
  private final Path authorityFile;
  private final List<Path> authoritySnapshots = new ArrayList<>();
  private SqliteFeedStore authorityStore;
  /** The authority's store as its server sees it, whose commits can be made to fail; null while down. */
  private FaultyFeedStore authorityFaults;
  private FeedServer server;
  private ManagedChannel channel;
  private GrpcAuthority authority;
  private int authorityFiles;
  private ServerSettings settings = ServerSettings.DEFAULTS;
  /** Limits the authority refused a request over since it last started, as {@code key=value}. */
  private final Set<String> refusedLimits = new HashSet<>();
  /** Requests refused twice over the same limit by one incarnation of the authority. */
  final List<String> limitViolations = new ArrayList<>();

  /** How many durable consumers a world has. */
  static final int CONSUMERS = 2;
  final DurableConsumer[] consumers = new DurableConsumer[CONSUMERS];
  /** Every block a compaction removed (as the authority held it just before), in removal order. */
  final List<Block> compacted = new ArrayList<>();
  /** Compactions that removed a position a durable subscription had not acknowledged. */
  final List<String> holdViolations = new ArrayList<>();

  final Replica[] replicas = new Replica[ScheduleGenerator.REPLICAS];
  /** Each replica's store as the replica sees it, whose commits can be made to fail. */
  private final FaultyFeedStore[] replicaFaults = new FaultyFeedStore[ScheduleGenerator.REPLICAS];
  final boolean[] connected = new boolean[ScheduleGenerator.REPLICAS];
  final List<List<Path>> backups = new ArrayList<>();
  /** What each replica has held since it was last restored from a backup: nothing may disappear. */
  final List<Set<String>> held = new ArrayList<>();
  final List<SyncStep> steps = new ArrayList<>();
  /** Live queries on every replica, checked after every operation. */
  final SimulatedQueries queries;
  private final boolean brokenQueries;
  private int applied;

  World(Path dir, long seed, Stats stats) {
    this(dir, seed, stats, false);
  }

  /** With {@code brokenQueries}, the replicas' live queries are broken on purpose ({@link ReplicaStores}). */
  World(Path dir, long seed, Stats stats, boolean brokenQueries) {
    this.dir = dir;
    this.stats = stats;
    this.brokenQueries = brokenQueries;
    this.queries = new SimulatedQueries(ScheduleGenerator.REPLICAS, stats);
    this.authorityFile = dir.resolve("authority.db");
    Random random = new Random(seed);
    for (int i = 0; i < feeds.length; i++) {
      feeds[i] = FeedId.generate(Clock.offset(CLOCK, Duration.ofMillis(i)), random);
    }
    startAuthority();
    for (int c = 0; c < CONSUMERS; c++) {
      consumers[c] = new DurableConsumer("c" + c);
    }
    for (int r = 0; r < replicas.length; r++) {
      replicas[r] = openReplica(r);
      backups.add(new ArrayList<>());
      held.add(new HashSet<>());
      for (int f = 0; f < feeds.length; f++) {
        replicas[r].replicate(SPACE, feeds[f], Optional.of(namespaceOf(f)), Replication.fullHistory());
      }
    }
  }

  static Namespace namespaceOf(int feed) {
    return feed < 2 ? SHARED : OTHER;
  }

  dev.feedstore.core.store.FeedStore authorityStore() {
    return authorityStore;
  }

  boolean authorityRunning() {
    return server != null;
  }

  void apply(Op op) {
    stats.op(op);
    if (op instanceof Op.Append append) {
      replicas[append.replica()].append(SPACE, feeds[append.feed()], BlockData.utf8(Documents.of(append.data())));
    } else if (op instanceof Op.AppendLarge large) {
      String data = Documents.of(large.data(), large.bytes());
      replicas[large.replica()].append(SPACE, feeds[large.feed()], BlockData.utf8(data));
    } else if (op instanceof Op.SetAuthorityLimits limits) {
      settings = LIMITS.get(limits.choice() % LIMITS.size());
      stopAuthority();
      startAuthority();
      if (limits.announce()) {
        try {
          authority.refreshInfo();
        } catch (AuthorityException unreachable) {
          // the replicas learn the limits from the refusals instead
        }
      }
    } else if (op instanceof Op.Connect c) {
      connected[c.replica()] = true;
    } else if (op instanceof Op.Disconnect d) {
      connected[d.replica()] = false;
    } else if (op instanceof Op.Push push) {
      if (connected[push.replica()]) {
        push(push.replica(), push.fault());
      }
    } else if (op instanceof Op.Pull pull) {
      if (connected[pull.replica()]) {
        pull(pull.replica(), pull.fault());
      }
    } else if (op instanceof Op.SnapshotAuthority) {
      if (server != null) {
        Path copy = dir.resolve("authority-snapshot-" + authoritySnapshots.size() + ".db");
        authorityStore.backupTo(copy);
        authoritySnapshots.add(copy);
      }
    } else if (op instanceof Op.RollbackAuthority rollback) {
      if (!authoritySnapshots.isEmpty()) {
        stopAuthority();
        DatabaseFiles.replace(authorityFile, authoritySnapshots.get(rollback.index() % authoritySnapshots.size()));
        startAuthority();
      }
    } else if (op instanceof Op.SwapAuthority) {
      stopAuthority();
      DatabaseFiles.delete(authorityFile);
      startAuthority();
    } else if (op instanceof Op.CrashAuthority) {
      stopAuthority();
      startAuthority();
    } else if (op instanceof Op.StopAuthority) {
      stopAuthority();
    } else if (op instanceof Op.StartAuthority) {
      startAuthority();
    } else if (op instanceof Op.RestartReplica restart) {
      replicas[restart.replica()].close();
      replicas[restart.replica()] = openReplica(restart.replica());
    } else if (op instanceof Op.BackupReplica backup) {
      int r = backup.replica();
      replicas[r].close();
      Path copy = dir.resolve("r" + r + "-backup-" + backups.get(r).size() + ".db");
      DatabaseFiles.replace(copy, replicaFile(r));
      backups.get(r).add(copy);
      replicas[r] = openReplica(r);
    } else if (op instanceof Op.RestoreReplica restore) {
      int r = restore.replica();
      if (!backups.get(r).isEmpty()) {
        replicas[r].close();
        DatabaseFiles.replace(replicaFile(r), backups.get(r).get(restore.index() % backups.get(r).size()));
        replicas[r] = openReplica(r);
        held.get(r).clear();
      }
    } else if (op instanceof Op.Compact compact) {
      compact(compact.keep());
    } else if (op instanceof Op.Consume consume) {
      // A few pages: a consumer that keeps up lets compactions through.
      for (int page = 0; page < 4 && server != null && !consumers[consume.consumer()].consume(channel); page++) {
        // next page
      }
    } else if (op instanceof Op.SetPolicy policy) {
      setPolicy(policy);
    } else if (op instanceof Op.StorageFault fault) {
      storageFault(fault);
    }
    for (int r = 0; r < replicas.length; r++) {
      held.get(r).addAll(data(r));
    }
    queries.check(replicas, "operation " + (++applied) + " " + op);
  }

  private void setPolicy(Op.SetPolicy policy) {
    Replica replica = replicas[policy.replica()];
    FeedId feed = feeds[policy.feed()];
    Optional<Namespace> namespace = Optional.of(namespaceOf(policy.feed()));
    switch (policy.policy()) {
      case NONE -> replica.replicate(SPACE, feed, namespace, Replication.NONE);
      case FULL -> replica.replicate(SPACE, feed, namespace, Replication.fullHistory());
      case LATEST -> replica.replicate(SPACE, feed, namespace, Replication.LATEST);
      case FROM -> replica.replicate(SPACE, feed, namespace, Replication.from(Position.of(policy.from())));
      case NAMESPACE_ON -> replica.replicateNamespace(SPACE, SHARED, true);
      case NAMESPACE_OFF -> replica.replicateNamespace(SPACE, SHARED, false);
      default -> throw new IllegalArgumentException(policy.toString());
    }
  }

  /**
   * The authority's or the replica's commits fail while the replica appends, pushes and pulls; a
   * failed local commit must surface as a {@link StorageFaultException} and leave nothing behind,
   * which the invariants check after healing.
   */
  private void storageFault(Op.StorageFault fault) {
    int r = fault.replica();
    FaultyFeedStore faulty = fault.authority() ? authorityFaults : replicaFaults[r];
    if (faulty == null) {
      return; // the authority is down
    }
    long failedBefore = faulty.failedCommits();
    faulty.fail(fault.kind());
    try {
      try {
        replicas[r].append(SPACE, feeds[fault.feed()], BlockData.utf8(Documents.of(fault.data())));
        if (!fault.authority()) {
          throw new IllegalStateException("r" + r + " appended '" + fault.data() + "' while its commits fail");
        }
      } catch (StorageFaultException e) {
        if (fault.authority()) {
          throw e;
        }
      }
      if (connected[r]) {
        throughFault(() -> push(r, Fault.NONE));
        throughFault(() -> pull(r, Fault.NONE));
      }
    } finally {
      faulty.heal();
    }
    stats.storageFault(fault, faulty.failedCommits() - failedBefore);
  }

  /** Runs a sync step whose local commit may fail on the injected fault (and then stores nothing). */
  private static void throughFault(Runnable step) {
    try {
      step.run();
    } catch (StorageFaultException e) {
      // The step's transaction was rolled back; a later step does it again.
    }
  }

  /**
   * Compacts up to the authority's highest position less {@code keep}, remembering what it removed;
   * a compaction that removes a position above a live durable subscription's acknowledged position
   * is a violation.
   */
  private void compact(int keep) {
    if (server == null) {
      return;
    }
    FeedStore store = authorityStore;
    long upTo = store.read(tx -> tx.blocks().maxPosition(SPACE)).value() - keep;
    if (upTo < 1) {
      return;
    }
    List<Block> before = store.read(tx -> tx.blocks().after(SPACE, Scope.WHOLE_SPACE, Position.NONE, Integer.MAX_VALUE));
    long held;
    long floor;
    try {
      held = FeedSyncGrpc.newBlockingStub(channel).listSubscriptions(ListSubscriptionsRequest.newBuilder()
          .setRequestId("sim").setSpaceId(SPACE.value()).build()).getSubscriptionsList().stream()
          .filter(d -> !d.getExpired()).mapToLong(DurableSubscription::getAcked).min().orElse(Long.MAX_VALUE);
      floor = FeedSyncGrpc.newBlockingStub(channel).compact(CompactRequest.newBuilder().setRequestId("sim")
          .setSpaceId(SPACE.value()).setUpTo(upTo).build()).getFloor();
    } catch (StatusRuntimeException e) {
      return;
    }
    if (floor > held) {
      holdViolations.add("compaction up to " + upTo + " raised the floor to " + floor
          + ", above the acknowledged position " + held + " of a live durable subscription");
    }
    int removed = compacted.size();
    before.stream().filter(b -> b.position().value() <= floor).forEach(compacted::add);
    if (compacted.size() > removed) {
      stats.compactions++;
      stats.compactedBlocks += compacted.size() - removed;
    }
  }

  /** The authority's floor now. */
  Position floor() {
    return authorityStore.read(tx -> tx.blocks().floor(SPACE)).position();
  }

  /** Every durable consumer reads until it has nothing more (or gives up after many pages). */
  void drainConsumers() {
    for (DurableConsumer consumer : consumers) {
      for (int i = 0; i < 10_000 && !consumer.consume(channel); i++) {
        // keep reading
      }
    }
  }

  /** One push step through a network that may fail or duplicate. */
  void push(int r, Fault fault) {
    SpaceSync sync = ClientAccess.get().sync(replicas[r], SPACE);
    Optional<PushBatch> batch = sync.beginPush(authority.limits());
    if (batch.isEmpty()) {
      return;
    }
    stats.fault(fault);
    if (fault == Fault.FAIL_BEFORE_COMMIT) {
      return;
    }
    AppendReply reply;
    try {
      reply = authority.append(SPACE, batch.get().namespace(), batch.get().blocks());
    } catch (SequenceConflictException conflict) {
      if (fault != Fault.FAIL_AFTER_COMMIT) {
        record(sync.applyConflict(batch.get(), conflict));
      }
      return;
    } catch (AuthorityLimitException over) {
      refusedOver(over);
      if (fault != Fault.FAIL_AFTER_COMMIT) {
        record(sync.applyOverLimit(batch.get(), over));
      }
      return;
    } catch (AuthorityException unreachable) {
      return;
    }
    if (fault == Fault.FAIL_AFTER_COMMIT) {
      return;
    }
    record(sync.applyPush(batch.get(), reply));
    if (fault == Fault.DUPLICATE_REPLY) {
      record(sync.applyPush(batch.get(), reply));
    }
  }

  /** One pull step through a network that may fail or duplicate; returns whether the authority had more. */
  boolean pull(int r, Fault fault) {
    SpaceSync sync = ClientAccess.get().sync(replicas[r], SPACE);
    Optional<PullTicket> ticket = sync.beginPull(authority.limits());
    if (ticket.isEmpty()) {
      return true;
    }
    stats.fault(fault);
    if (fault == Fault.FAIL_BEFORE_COMMIT) {
      return false;
    }
    PullPage page;
    try {
      page = authority.pull(ticket.get().request());
    } catch (AuthorityLimitException over) {
      refusedOver(over);
      record(new SyncStep(SyncStep.Kind.OVER_LIMIT, 0, over.getMessage()));
      return false;
    } catch (CompactedHistoryException compacted) {
      if (fault != Fault.FAIL_AFTER_COMMIT) {
        record(sync.applyCompacted(ticket.get(), compacted));
      }
      return false;
    } catch (AuthorityException unreachable) {
      return false;
    }
    if (fault == Fault.FAIL_AFTER_COMMIT) {
      return false;
    }
    SyncStep step = record(sync.applyPull(ticket.get(), page).step());
    if (fault == Fault.DUPLICATE_REPLY) {
      record(sync.applyPull(ticket.get(), page).step());
    }
    return step.kind() == SyncStep.Kind.PULLED && page.complete();
  }

  /** A request was refused over a limit: the same limit must not refuse a request again (until a restart). */
  private void refusedOver(AuthorityLimitException over) {
    if (!refusedLimits.add(over.limitKey() + "=" + over.limit())) {
      limitViolations.add("refused twice over " + over.limitKey() + " " + over.limit() + ": " + over.getMessage());
    }
  }

  /** Starts the authority, with its default limits, if it is down, and connects every replica. */
  void heal() {
    if (!settings.equals(ServerSettings.DEFAULTS)) {
      settings = ServerSettings.DEFAULTS;
      stopAuthority();
    }
    startAuthority();
    java.util.Arrays.fill(connected, true);
  }

  /**
   * Syncs every replica with no faults, round after round, until a round changes nothing.
   *
   * @return the rounds it took, or -1 if it did not settle within {@code maxRounds}
   */
  int settle(int maxRounds) {
    for (int round = 1; round <= maxRounds; round++) {
      int before = changes();
      for (int r = 0; r < replicas.length; r++) {
        for (int i = 0; i < 10_000 && pushOnce(r); i++) {
          // keep pushing
        }
        for (int i = 0; i < 10_000 && !pull(r, Fault.NONE); i++) {
          // keep pulling
        }
      }
      if (changes() == before) {
        return round;
      }
    }
    return -1;
  }

  private boolean pushOnce(int r) {
    int before = steps.size();
    push(r, Fault.NONE);
    return steps.size() > before;
  }

  /** A count that grows with every step that changed something. */
  private int changes() {
    int count = 0;
    for (SyncStep step : steps) {
      if (step.kind() != SyncStep.Kind.PULLED || step.blocks() > 0) {
        count++;
      }
    }
    return count;
  }

  private SyncStep record(SyncStep step) {
    steps.add(step);
    stats.step(step);
    return step;
  }

  /** The data of every block the replica holds. */
  Set<String> data(int r) {
    Set<String> result = new HashSet<>();
    for (FeedId feed : feeds) {
      for (Block block : replicas[r].read(SPACE, feed)) {
        result.add(block.data().toStringUtf8());
      }
    }
    return result;
  }

  /** Opens replica {@code r} from its file, and follows its live queries. */
  private Replica openReplica(int r) {
    Replica.Builder builder = ClientAccess.get().sqlite(Replica.builder(replicaFile(r)), FAST).actorId(ActorId.of("r" + r))
        .clock(CLOCK).syncBatches(7, 5);
    if (brokenQueries) {
      ReplicaStores.withBrokenLiveQueries(builder);
    }
    Replica replica = ReplicaStores.wrapped(builder,
        store -> replicaFaults[r] = new FaultyFeedStore(store, replicaFile(r))).build();
    queries.follow(r, replica);
    return replica;
  }

  private Path replicaFile(int r) {
    return dir.resolve("r" + r + ".db");
  }

  private void startAuthority() {
    if (server != null) {
      return;
    }
    authorityStore = SqliteFeedStore.open(authorityFile, FAST);
    authorityFaults = new FaultyFeedStore(authorityStore, authorityFile);
    String name = "sim-" + dir.getFileName() + "-" + (authorityFiles++);
    try {
      server = FeedServer.newBuilder(authorityFaults).settings(settings)
          .serverBuilder(InProcessServerBuilder.forName(name)).build().start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (channel != null) {
      channel.shutdownNow();
    }
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    authority = new GrpcAuthority(channel, Duration.ofSeconds(20), Duration.ofHours(1));
    refusedLimits.clear();
  }

  private void stopAuthority() {
    if (server == null) {
      return;
    }
    channel.shutdownNow();
    server.close();
    authorityStore.close();
    server = null;
    authorityStore = null;
    authorityFaults = null;
    // Calls while the authority is down fail the way they would over a dead connection.
    channel = InProcessChannelBuilder.forName("sim-down-" + dir.getFileName()).directExecutor().build();
    authority = new GrpcAuthority(channel, Duration.ofSeconds(5), Duration.ofHours(1));
  }

  @Override
  public void close() {
    for (int r = 0; r < replicas.length; r++) {
      queries.countEvents(r);
    }
    for (Replica replica : replicas) {
      if (replica != null) {
        replica.close();
      }
    }
    stopAuthority();
    if (channel != null) {
      channel.shutdownNow();
    }
  }

}
