package dev.feedstore.server.internal.spaces;

import static dev.feedstore.server.settings.ServerSettings.SHARED_PAGES;
import static dev.feedstore.server.settings.ServerSettings.SHARED_PAGES_BYTES;
import static dev.feedstore.server.settings.ServerSettings.SPACES_PER_SERVER;
import static dev.feedstore.server.settings.ServerSettings.TAIL_BLOCKS;
import static dev.feedstore.server.settings.ServerSettings.TAIL_BYTES;

import dev.feedstore.core.LimitExceededException;
import dev.feedstore.core.Position;
import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.AuthorityStore;
import dev.feedstore.core.store.AuthorityTransaction;
import dev.feedstore.server.settings.ServerSettings;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The in-memory state of the spaces the authority serves. A space the store holds (it has a stored
 * server token) is loaded on first contact and kept for the server's life; there are at most
 * {@code spaces-per-server} of them, counted in the store. A space the store does not hold is not
 * created by reading it: a read gets a state with the token the space will keep ({@link
 * dev.feedstore.core.store.ServerTokens#tokenOf}), which lives only while some call holds it (a
 * Watch stream among them, so that it is told of the space's first blocks) and is forgotten after.
 * Only an append stores a space ({@link #admit}, in the append's own transaction).
 *
 * <p>Every {@link #acquire} is followed by one {@link #release} when the caller is done with the
 * state. The store tells this process of other processes' commits in the spaces it holds in memory,
 * and only those ({@link AuthorityStore#follow}, from before a space's load).
 *
 * <p>Thread-safe. Loading a space blocks on a read of the store; later lookups of a stored space do
 * not touch the store.
 */
public final class Spaces {
  private record Loaded(ServerToken token, boolean stored, Position maxPosition) {}

  private final AuthorityStore<?> store;
  private final ServerSettings settings;
  /** What the pages kept for streams behind may hold in all spaces together. */
  private final SharedPageBudget pageBudget;
  private final Map<SpaceId, SpaceState> states = new ConcurrentHashMap<>();
  /** Guards loading, the holders of states not stored, and marking states stored. */
  private final Object loading = new Object();
  /** Guarded by loading. */
  private int storedCount;

  public Spaces(AuthorityStore<?> store, ServerSettings settings) {
    this.store = store;
    this.settings = settings;
    this.pageBudget = new SharedPageBudget(settings.get(SHARED_PAGES_BYTES));
  }

  /** How many spaces the store holds that this process has loaded. */
  public int loadedCount() {
    synchronized (loading) {
      return storedCount;
    }
  }

  /** How many states are in memory, those of spaces the store does not hold included. */
  int inMemoryCount() {
    return states.size();
  }

  /** The state of the space if this process holds it in memory now, else null; needs no release. */
  public SpaceState inMemory(SpaceId spaceId) {
    return states.get(spaceId);
  }

  /** The states this process holds in memory now. */
  public java.util.List<SpaceState> allInMemory() {
    return java.util.List.copyOf(states.values());
  }

  /** The state of the space, loaded on first contact; {@link #release} it when done. */
  public SpaceState acquire(SpaceId spaceId) {
    SpaceState state = states.get(spaceId);
    if (state != null && state.stored()) {
      return state; // stored states stay, so they need no count of holders
    }
    synchronized (loading) {
      state = states.get(spaceId);
      if (state == null) {
        // Commits of other processes sharing the store are heard from before the read, so none falls between.
        store.follow(spaceId);
        Loaded loaded;
        try {
          loaded = store.read(tx -> {
            Optional<ServerToken> stored = tx.serverTokens().find(spaceId);
            return new Loaded(stored.orElseGet(() -> tx.serverTokens().tokenOf(spaceId)), stored.isPresent(),
                tx.blocks().maxPosition(spaceId));
          });
        } catch (RuntimeException e) {
          store.unfollow(spaceId);
          throw e;
        }
        state = new SpaceState(spaceId, loaded.token(),
            new SpaceTail(loaded.maxPosition().value(), settings.get(TAIL_BLOCKS), settings.get(TAIL_BYTES),
                new SharedPages(settings.get(SHARED_PAGES), pageBudget)), loaded.stored());
        states.put(spaceId, state);
        if (loaded.stored()) {
          storedCount++;
        }
      }
      if (!state.stored()) {
        state.holders(state.holders() + 1);
      }
      return state;
    }
  }

  /** Gives back a state from {@link #acquire}: one the store does not hold is forgotten with its last holder. */
  public void release(SpaceState state) {
    if (state.stored()) {
      return;
    }
    synchronized (loading) {
      state.holders(state.holders() - 1);
      if (state.holders() == 0 && !state.stored() && states.remove(state.spaceId(), state)) {
        store.unfollow(state.spaceId());
      }
    }
  }

  /**
   * Inside an append's write transaction: stores the space's token unless the store holds the space
   * already, so the space is created together with its first blocks (or not at all).
   *
   * @throws LimitExceededException if the store holds {@code spaces-per-server} spaces already
   */
  public void admit(AuthorityTransaction tx, SpaceState state) {
    if (state.stored() || tx.serverTokens().find(state.spaceId()).isPresent()) {
      return;
    }
    long served = tx.serverTokens().count();
    if (served >= settings.get(SPACES_PER_SERVER)) {
      throw new LimitExceededException(SPACES_PER_SERVER.name(), settings.get(SPACES_PER_SERVER),
          served + 1, "the server, with space '" + state.spaceId().value() + "' added,");
    }
    tx.serverTokens().findOrCreate(state.spaceId());
  }

  /** After a transaction that ran {@link #admit} committed: the space is held by the store now. */
  public void stored(SpaceState state) {
    if (state.stored()) {
      return;
    }
    synchronized (loading) {
      if (!state.stored()) {
        state.markStored();
        storedCount++;
      }
    }
  }
}
