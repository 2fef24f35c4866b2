package dev.feedstore.client;

import dev.feedstore.client.internal.Backoff;
import dev.feedstore.client.internal.Channels;
import dev.feedstore.client.internal.CommitOrder;
import dev.feedstore.client.internal.GrpcAuthority;
import dev.feedstore.client.internal.ListenerHub;
import dev.feedstore.client.internal.ListenerThread;
import dev.feedstore.client.internal.QueryHub;
import dev.feedstore.client.internal.RefusedBlocks;
import dev.feedstore.client.internal.ReplicaEvents;
import dev.feedstore.client.internal.ReplicaLock;
import dev.feedstore.client.internal.SessionLoop;
import dev.feedstore.client.internal.StatusTracker;
import dev.feedstore.core.ActorId;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.FeedInfo;
import dev.feedstore.core.Limits;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Predecessor;
import dev.feedstore.core.Replication;
import dev.feedstore.core.Scope;
import dev.feedstore.core.Sequence;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.result.LiveResult;
import dev.feedstore.core.store.CorruptBlockException;
import dev.feedstore.core.store.DamagedStoreException;
import dev.feedstore.core.store.FeedStore;
import dev.feedstore.core.store.UnknownFeedException;
import dev.feedstore.core.sync.SpaceSync;
import dev.feedstore.core.sync.SyncStep;
import dev.feedstore.sqlite.QuickCheck;
import dev.feedstore.sqlite.SqliteFeedStore;
import dev.feedstore.sqlite.SqliteSettings;
import io.grpc.Channel;
import io.grpc.ManagedChannel;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A local replica: feeds in a SQLite file that the application reads and appends to with or
 * without a connection, and that syncs with a position authority while a {@link SyncSession} is
 * open.
 *
 * <pre>{@code
 * try (Replica replica = Replica.open(Path.of("notes.db"), ActorId.of("alice-laptop"))) {
 *   SpaceId space = SpaceId.of("team");
 *   FeedId feed = replica.createFeed(space, Optional.of(Namespace.of("notes")), Replication.fullHistory());
 *   replica.append(space, feed, BlockData.utf8("hello"));
 *   try (SyncSession sync = replica.connect("127.0.0.1:7070", ConnectOptions.DEFAULTS)) {
 *     sync.awaitSynced(Duration.ofSeconds(10));
 *   }
 * }
 * }</pre>
 *
 * <p>Every block this replica appends is authored by its {@link #actorId()}: use the user's public
 * key or a stable device id, one per replica file. Feeds are local only until a {@link Replication}
 * policy says otherwise. A replica holds an exclusive lock on its file while open ({@link
 * ReplicaLock}): a second open, in this process or another, fails with {@link
 * ReplicaInUseException}. Thread-safe.
 */
public final class Replica implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Replica.class);
  /** How long the check of the file at open may take unless the builder says otherwise. */
  public static final Duration DEFAULT_QUICK_CHECK = Duration.ofSeconds(10);
  private final ReplicaLock lock;
  private final SqliteFeedStore sqlite;
  /** The store every transaction goes through: {@link #sqlite}, unless a test wraps it. */
  private final FeedStore store;
  private final ActorId actor;
  private final Clock clock;
  private final Limits limits;
  private final int pullLimit;
  private final int pushLimit;
  private final ListenerThread listenerThread;
  private final int pushesInFlight;
  private final ListenerHub listeners;
  private final QueryHub queries;
  private final ReplicaEvents events;
  private final Map<SpaceId, SpaceSync> syncs = new ConcurrentHashMap<>();
  private final AtomicReference<SyncSession> session = new AtomicReference<>();

  private Replica(Builder builder) {
    this.actor = Objects.requireNonNull(builder.actor, "actorId is required");
    this.clock = builder.clock;
    this.limits = builder.limits;
    this.pullLimit = builder.pullLimit;
    this.pushLimit = builder.pushLimit;
    this.pushesInFlight = builder.pushesInFlight;
    this.lock = ReplicaLock.acquire(builder.file);
    SqliteFeedStore opened = null;
    try {
      opened = SqliteFeedStore.open(builder.file, builder.sqlite);
      check(opened, builder.quickCheck);
    } catch (RuntimeException e) {
      if (opened != null) {
        opened.close();
      }
      lock.abandon();
      throw e;
    }
    this.sqlite = opened;
    this.store = builder.storeWrapper.apply(sqlite);
    this.listenerThread = new ListenerThread();
    CommitOrder order = new CommitOrder();
    this.listeners = new ListenerHub(store, this::setAside, listenerThread);
    this.queries = new QueryHub(store, order, listenerThread, clock, builder.liveQueryMatches,
        this::sync, this::setAside);
    if (builder.pulledTakenAsNewest) {
      queries.breakOnPurpose();
    }
    this.events = new ReplicaEvents(order, listeners, queries);
  }

  /**
   * Checks the file's pages with SQLite's {@code quick_check} for at most {@code limit} (zero skips
   * it); a check that runs out of time is logged with the tables it did not check whole.
   *
   * @throws DamagedStoreException if the check finds damage
   */
  private static void check(SqliteFeedStore store, Duration limit) {
    if (limit.isZero()) {
      return;
    }
    QuickCheck check = store.quickCheck(limit);
    check.refuseDamaged(store.file(), "A replica does not write into a damaged file: restore the file from a backup,"
        + " or move it with its -wal and -shm aside and open a new replica there, which pulls again what the"
        + " authority holds (blocks not pushed yet are only in the damaged file: sqlite3's .recover may save them)");
    if (!check.complete()) {
      log.warn("{} of replica file {}; raise the replica's quickCheck to check it whole", check.summary(),
          store.file());
    }
  }

  /**
   * Opens (creating if needed) the replica in {@code file}, writing as {@code actor}, after a check
   * of its pages for at most {@link #DEFAULT_QUICK_CHECK} ({@link Builder#quickCheck}).
   *
   * @throws ReplicaInUseException if the file is open already, in this process or another
   * @throws DamagedStoreException if the file is damaged (a torn write, a bad sector), naming the
   *     file and what to do; nothing was written to it
   * @throws dev.feedstore.core.store.StoreException if the file cannot be opened, or is not a replica
   *     of this or an older version
   */
  public static Replica open(Path file, ActorId actor) {
    return builder(file).actorId(actor).build();
  }

  /** A builder of the replica kept in {@code file}, created if it does not exist. */
  public static Builder builder(Path file) {
    return new Builder(file);
  }

  /** Settings of a replica; {@link #actorId} is required. */
  public static final class Builder {
    private final Path file;
    private ActorId actor;
    private Clock clock = Clock.systemUTC();
    private Limits limits = Limits.DEFAULTS;
    private SqliteSettings sqlite = SqliteSettings.DEFAULTS;
    private int pullLimit = SpaceSync.DEFAULT_PULL_LIMIT;
    private int pushLimit = SpaceSync.DEFAULT_PUSH_LIMIT;
    private int liveQueryMatches = LiveResult.DEFAULT_MAX_MATCHES;
    private int pushesInFlight = GrpcAuthority.DEFAULT_APPENDS_IN_FLIGHT;
    private UnaryOperator<FeedStore> storeWrapper = UnaryOperator.identity();
    private boolean pulledTakenAsNewest;
    private Duration quickCheck = DEFAULT_QUICK_CHECK;

    private Builder(Path file) {
      this.file = Objects.requireNonNull(file, "file");
    }

    /** The author of this replica's blocks. */
    public Builder actorId(ActorId value) {
      this.actor = value;
      return this;
    }

    /**
     * The clock of block timestamps and feed ids, and of live queries' time of evaluation, which is
     * a pending version's receive time (default: the system clock).
     */
    public Builder clock(Clock value) {
      this.clock = value;
      return this;
    }

    /** Limits checked on append, so that oversize blocks fail at once rather than at push. */
    public Builder limits(Limits value) {
      this.limits = value;
      return this;
    }

    /**
     * How many blocks one pull page asks for and one push sends (defaults {@value
     * SpaceSync#DEFAULT_PULL_LIMIT} and {@value SpaceSync#DEFAULT_PUSH_LIMIT}); the authority's own
     * limits cap both.
     */
    public Builder syncBatches(int pull, int push) {
      if (pull < 1 || push < 1) {
        throw new IllegalArgumentException("sync batches must be >= 1, were " + pull + " and " + push);
      }
      this.pullLimit = pull;
      this.pushLimit = push;
      return this;
    }

    /**
     * The most documents one live query may match, within its limit or not (setting {@value
     * LiveResult#MATCHES_SETTING}, default {@value LiveResult#DEFAULT_MAX_MATCHES}): a query that
     * would match more ends with a {@link dev.feedstore.core.LimitExceededException} naming it.
     */
    public Builder liveQueryMatches(int value) {
      if (value < 1) {
        throw new IllegalArgumentException(LiveResult.MATCHES_SETTING + " must be >= 1, was " + value);
      }
      this.liveQueryMatches = value;
      return this;
    }

    /**
     * How many push batches of a space are sent together, in flight at once on one stream (default
     * {@value GrpcAuthority#DEFAULT_APPENDS_IN_FLIGHT}); 1 waits for each answer before the next.
     * The authority commits them in order, and a batch sent after a refused one of its feeds is sent
     * again once the refusal is handled (docs/replica.md).
     *
     * @throws IllegalArgumentException if {@code value} is below 1
     */
    public Builder pushesInFlight(int value) {
      if (value < 1) {
        throw new IllegalArgumentException("pushesInFlight must be >= 1, was " + value);
      }
      this.pushesInFlight = value;
      return this;
    }

    /**
     * How long the check of the file's pages at open may take (default {@link
     * #DEFAULT_QUICK_CHECK}): SQLite's {@code quick_check}, table by table; a damaged file is
     * refused ({@link DamagedStoreException}), and a check that runs out of time opens the file with
     * a warning naming the tables it did not check whole. Zero skips the check.
     *
     * @throws IllegalArgumentException if {@code limit} is negative
     */
    public Builder quickCheck(Duration limit) {
      if (limit.isNegative()) {
        throw new IllegalArgumentException("quickCheck must be >= 0 (0 skips the check), was " + limit);
      }
      this.quickCheck = limit;
      return this;
    }

    /** The SQLite settings of the file (default {@link SqliteSettings#DEFAULTS}); for tests and tools. */
    Builder sqlite(SqliteSettings value) {
      this.sqlite = value;
      return this;
    }

    /**
     * Sends every transaction of the replica through the store {@code wrapper} makes of its own
     * (which must delegate to it), so that tests can make its commits fail. Not for applications.
     */
    Builder wrapStore(UnaryOperator<FeedStore> wrapper) {
      this.storeWrapper = Objects.requireNonNull(wrapper, "wrapper");
      return this;
    }

    /**
     * Breaks live queries on purpose, so that tests can show their checks fail: a sync step's blocks
     * are taken for their documents' newest versions, as a local append's are, instead of reading
     * the documents' current versions. Not for applications.
     */
    Builder breakLiveQueries() {
      this.pulledTakenAsNewest = true;
      return this;
    }

    /** Opens the replica as built: locks, checks and, if need be, creates its file. */
    public Replica build() {
      return new Replica(this);
    }
  }

  /** The actor that authors every block this replica appends. */
  public ActorId actorId() {
    return actor;
  }

  /** The replica's SQLite file. */
  public Path file() {
    return sqlite.file();
  }

  // ---------------------------------------------------------------- feeds

  /** Creates a feed with a new id, with {@code replication} as its policy. */
  public FeedId createFeed(SpaceId space, Optional<Namespace> namespace, Replication replication) {
    FeedId feed = FeedId.generate(clock, new SecureRandom());
    store.write(tx -> {
      tx.feeds().create(space, feed, namespace);
      if (!(replication instanceof Replication.None)) {
        tx.replication().setFeed(space, feed, replication);
      }
      return null;
    });
    policyChanged(space);
    return feed;
  }

  /**
   * Sets how a feed is replicated; a feed this replica does not hold yet (one another replica
   * created) is added, so that its blocks can be pulled, and takes its namespace from the authority
   * at the first pull. A start below what the replica has pulled already is back-filled.
   *
   * <p>If this replica pushes blocks of such a feed before the authority has it, the authority
   * creates the feed without a namespace; when the namespace is known, prefer {@link
   * #replicate(SpaceId, FeedId, Optional, Replication)}.
   */
  public void replicate(SpaceId space, FeedId feed, Replication replication) {
    replicate(space, feed, Optional.empty(), replication);
  }

  /**
   * Like {@link #replicate(SpaceId, FeedId, Replication)}, for a feed whose namespace the caller
   * knows: a feed this replica does not hold yet is added with it.
   */
  public void replicate(SpaceId space, FeedId feed, Optional<Namespace> namespace, Replication replication) {
    changePolicies(space, tx -> {
      tx.feeds().create(space, feed, namespace);
      namespace.ifPresent(ns -> tx.feeds().adoptNamespace(space, feed, ns));
      tx.replication().setFeed(space, feed, replication);
      rewindForBackfill(tx, space, replication);
    });
  }

  /**
   * Replicates every feed of the space, including feeds created later (here or elsewhere) and this
   * replica's local ones, from where {@code replication} says: {@link Replication#fullHistory()},
   * {@link Replication#from}, {@link Replication#LATEST} (the live tail), or {@link Replication#since}
   * (what the authority received from a time on, resolved to a position at the next contact).
   * {@link Replication#NONE} ends it; feeds with a policy of their own, or in a replicated namespace, keep following that
   * one, which wins over the space's for its feeds. A start below what the replica has pulled
   * already is back-filled.
   */
  public void replicateSpace(SpaceId space, Replication replication) {
    changePolicies(space, tx -> {
      tx.replication().setSpace(space, replication);
      rewindForBackfill(tx, space, replication);
    });
  }

  /** The whole space's policy ({@link #replicateSpace}); {@link Replication#NONE} when it has none. */
  public Replication replication(SpaceId space) {
    return store.read(tx -> tx.replication().space(space));
  }

  /** Replicates every feed of {@code namespace} in the space, with full history, including feeds created later. */
  public void replicateNamespace(SpaceId space, Namespace namespace, boolean replicated) {
    changePolicies(space, tx -> {
      tx.replication().setNamespace(space, namespace, replicated);
      if (replicated) {
        rewindForBackfill(tx, space, Replication.fullHistory());
      }
    });
  }

  /**
   * Changes the space's replication policies (and perhaps a feed's namespace) in one transaction,
   * and tells sync and live queries: what a query's scope misses or covers may change with them.
   */
  private void changePolicies(SpaceId space, java.util.function.Consumer<dev.feedstore.core.store.StoreTransaction> change) {
    events.committing(() -> {
      store.write(tx -> {
        change.accept(tx);
        return null;
      });
      events.policiesChanged(space);
      return null;
    });
    policyChanged(space);
  }

  /** The policy of a feed. */
  public Replication replication(SpaceId space, FeedId feed) {
    return store.read(tx -> tx.replication().feed(space, feed));
  }

  /** The namespaces of a space whose every feed this replica replicates. */
  public Set<Namespace> replicatedNamespaces(SpaceId space) {
    return store.read(tx -> tx.replication().namespaces(space));
  }

  /** The feeds of a space this replica holds. */
  public List<FeedInfo> feeds(SpaceId space) {
    return store.read(tx -> tx.feeds().list(space, Optional.empty()));
  }

  // ---------------------------------------------------------------- blocks

  /**
   * Appends a block to a feed, with or without a connection: sequence and predecessor follow the
   * feed's local content (DESIGN 5.1). The block is unpositioned until sync pushes it.
   *
   * <p>A feed another replica created can be appended to as soon as this replica knows it: after
   * {@link #replicate} (at once, before anything was pulled; the sequence then follows what is
   * held, and a block whose key the authority holds with other content is re-keyed at push), or
   * once its blocks were pulled through a namespace or space policy.
   *
   * @throws UnknownFeedException if the replica does not know the feed, saying how to make it known
   * @throws dev.feedstore.core.LimitExceededException if the data is larger than the block limit
   * @throws CorruptBlockException if the feed's last block is stored corrupt (nothing is appended;
   *     see {@link #read})
   */
  public BlockKey append(SpaceId space, FeedId feed, BlockData data) {
    return append(space, feed, List.of(data)).get(0);
  }

  /** Appends several blocks to a feed in one transaction, in order. */
  public List<BlockKey> append(SpaceId space, FeedId feed, List<BlockData> data) {
    List<BlockKey> keys = setAsideOnFailure(() -> events.committing(() -> appendCommitted(space, feed, data)));
    SyncSession current = session.get();
    if (current != null) {
      current.wake();
    }
    return keys;
  }

  /** Appends in one transaction and tells the listeners; runs inside the order of commits. */
  private List<BlockKey> appendCommitted(SpaceId space, FeedId feed, List<BlockData> data) {
    List<Block> written = new ArrayList<>(data.size());
    Optional<Namespace> namespace = store.write(tx -> {
      written.clear();
      Optional<FeedInfo> info = tx.feeds().find(space, feed);
      if (info.isEmpty()) {
        throw new UnknownFeedException(space, feed, "this replica does not know feed " + feed + " of space " + space
            + ": create it here (createFeed), or, for a feed another replica created, replicate it first"
            + " (replicate(space, feed, policy), or its namespace or space), which lets this replica append to it at once");
      }
      Optional<Block> last = tx.blocks().lastInFeed(space, feed);
      Sequence sequence = Sequence.after(tx.blocks().maxSequence(space, feed).orElse(null));
      for (BlockData bytes : data) {
        BlockKey key = new BlockKey(feed, actor, sequence);
        Block block = Block.unpositioned(key, last.map(b -> Predecessor.of(b.key())), clock.millis(), bytes);
        limits.checkBlock(block);
        tx.blocks().insertLocal(space, block);
        written.add(block);
        last = Optional.of(block);
        sequence = sequence.next();
      }
      return info.get().namespace();
    });
    events.appended(space, written, namespace);
    return written.stream().map(Block::key).toList();
  }

  /**
   * The feed in feed order: positioned blocks by position, then unpositioned by sequence and actor.
   *
   * @throws CorruptBlockException if a block of the feed is stored corrupt (its bytes changed in
   *     the file): the replica sets it aside, and fetches it again from the authority when the
   *     authority holds it (the message says which); read again afterwards
   */
  public List<Block> read(SpaceId space, FeedId feed) {
    return setAsideOnFailure(() -> store.read(tx -> tx.blocks().feed(space, feed)));
  }

  /**
   * Listens to the feeds of {@code scope} in a space: first their current content, then every
   * change. See {@link FeedListener}.
   */
  public Registration listen(SpaceId space, Scope scope, FeedListener listener) {
    return listeners.register(space, scope, listener);
  }

  /**
   * Follows a live query over this replica's file, offline or not: the listener gets the result's
   * rows ({@link LiveQueryEvent.Snapshot}), then the changes of each local commit or pulled batch
   * that changed them, whole ({@link LiveQueryEvent.Changes}), a {@link LiveQueryEvent.Reset} after
   * a recovery that rewrote history, all on the replica's listener thread (see {@link
   * LiveQueryListener}). A version is a block of the query's scope; a document's current version is
   * its last one in the order of versions: positioned blocks by position, then this replica's
   * pending ones in the order it stored them. A pending version's receive time is the time of
   * evaluation, by this replica's clock. A change costs the documents it touched, not a re-run of
   * the query; a query keyed by a JSON pointer has the key indexed in the file (once, here, before
   * this returns). Closing the registration stops it. See {@code docs/live-queries.md}.
   *
   * @throws IllegalStateException if the replica is closed
   */
  public LiveQueryRegistration liveQuery(LiveQuery query, LiveQueryListener listener) {
    return queries.register(query, listener);
  }

  /** Blocks the live queries of this replica read from its file so far (tests count what a change cost). */
  long liveQueryBlocksRead() {
    return queries.blocksRead();
  }

  // ---------------------------------------------------------------- sync

  /**
   * Starts syncing with the authority at {@code target} ({@code host:port}, or any gRPC target
   * name), over a channel this method builds for the protocol: plain text or TLS, the access token,
   * keepalive so that a dead link is noticed ({@link ConnectOptions}); the messages it accepts are
   * sized by the limits the authority states. Closing the session shuts the channel down. One
   * session at a time.
   *
   * @throws IllegalStateException if a session is open
   * @throws IllegalArgumentException if the target or the TLS certificates cannot be used
   */
  public SyncSession connect(String target, ConnectOptions options) {
    return connectOwned(Channels.build(target, options), options);
  }

  /** A session over a channel this replica built, and shuts down with the session. */
  private SyncSession connectOwned(ManagedChannel channel, ConnectOptions options) {
    Supplier<Object> credentials = () -> options.token().map(token -> (Object) java.util.Objects.hashCode(token.get()))
        .orElse(null);
    try {
      return connect(channel, options.session(), credentials, channel::shutdownNow);
    } catch (RuntimeException e) {
      channel.shutdownNow();
      throw e;
    }
  }

  /**
   * Starts syncing with an authority served by several processes (over one shared database, behind
   * no load balancer of their own): {@code targets} lists them ({@code host:port} each). The session
   * talks to one of them, picked at random so that replicas spread over the servers; when that one
   * goes away (a crash, a restart, a lost link) it reconnects to another, and carries on from its
   * cursor as after any reconnection. With TLS the first target's host name is the one checked
   * against the certificates, so give the servers a certificate for that name. Otherwise as {@link
   * #connect(String, ConnectOptions)}.
   *
   * @throws IllegalStateException if a session is open
   * @throws IllegalArgumentException if a target is not {@code host:port}, or the TLS certificates cannot be used
   */
  public SyncSession connect(List<String> targets, ConnectOptions options) {
    ManagedChannel channel = Channels.build(targets, options);
    return connectOwned(channel, options);
  }

  /** Starts syncing with the authority behind {@code channel}, with default options. */
  SyncSession connect(Channel channel) {
    return connect(channel, SyncSession.Options.DEFAULTS);
  }

  /**
   * Starts syncing with the authority behind {@code channel}. The channel stays the caller's to shut
   * down. One session at a time.
   *
   * @throws IllegalStateException if a session is open
   */
  SyncSession connect(Channel channel, SyncSession.Options options) {
    return connect(channel, options, () -> null, () -> {});
  }

  private SyncSession connect(Channel channel, SyncSession.Options options, Supplier<?> credentials, Runnable closed) {
    GrpcAuthority authority = new GrpcAuthority(channel, options.callDeadline(), options.subscriptionTtl(),
        pushesInFlight);
    StatusTracker status = new StatusTracker();
    SessionLoop loop = new SessionLoop(authority, this::sync,
        () -> store.read(tx -> tx.replication().spaces()), status,
        new Backoff(options.backoffInitial(), options.backoffMax(), new SecureRandom()), options.idlePoll(),
        options.refusalRetry(), credentials);
    AtomicReference<SyncSession> created = new AtomicReference<>();
    SyncSession newSession = new SyncSession(loop, status, authority::info, () -> {
      session.compareAndSet(created.get(), null);
      closed.run();
    });
    created.set(newSession);
    if (!session.compareAndSet(null, newSession)) {
      throw new IllegalStateException("this replica already has an open sync session; close it first");
    }
    newSession.start();
    return newSession;
  }

  /**
   * The blocks of the space that sync leaves out because the authority would refuse them: for their
   * size (by the limits the last session learned), pushed once the authority accepts them; or
   * because the authority refused new blocks in their feed (the feed of a Durable Stream that is
   * over, {@link RefusedBlock}), kept here and never pushed. They stay unpositioned and every other
   * block keeps syncing. Those of closed feeds first, then those over a limit, each in push order.
   * A refused block is no version of a live query's document ({@link #liveQuery}).
   */
  public List<RefusedBlock> refused(SpaceId space) {
    return RefusedBlocks.of(sync(space));
  }

  /**
   * The steppable sync of one space (DESIGN 5.2): tests and tools can push and pull one step at a
   * time with it, with no session open.
   */
  SpaceSync sync(SpaceId space) {
    return syncs.computeIfAbsent(space, s -> new SpaceSync(s, store, events, pullLimit, pushLimit));
  }

  @Override
  public void close() {
    SyncSession current = session.get();
    if (current != null) {
      current.close();
    }
    queries.close();
    listeners.close();
    listenerThread.close();
    try {
      sqlite.close();
    } finally {
      lock.close();
    }
  }

  /** Runs {@code work}; a block it finds corrupt is set aside before the failure passes on. */
  private <T> T setAsideOnFailure(Supplier<T> work) {
    try {
      return work.get();
    } catch (CorruptBlockException e) {
      setAside(e);
      throw e;
    }
  }

  /**
   * Sets aside a block found corrupt ({@link SpaceSync#setAside}) and restarts the space's live
   * stream, so that a block the authority holds comes back at once.
   */
  private SyncStep setAside(CorruptBlockException corrupt) {
    SyncStep step = sync(corrupt.spaceId()).setAside(corrupt);
    log.warn("{}", step.detail());
    SyncSession current = session.get();
    if (current != null) {
      current.rescope(corrupt.spaceId());
    }
    return step;
  }

  private void policyChanged(SpaceId space) {
    sync(space).invalidate();
    SyncSession current = session.get();
    if (current != null) {
      current.rescope(space);
    }
  }

  /**
   * A policy that starts below the cursor needs the history between: the cursor goes back before
   * the start ({@link SpaceSync#rewind}), and the pulls that follow bring the missing blocks (the
   * rest are duplicates and are skipped by key).
   */
  private static void rewindForBackfill(dev.feedstore.core.store.StoreTransaction tx, SpaceId space, Replication replication) {
    if (replication instanceof Replication.From from) {
      SpaceSync.rewind(tx, space, dev.feedstore.core.Position.of(Math.max(0, from.from().value() - 1)));
    }
  }
}
