package dev.feedstore.server.internal;

import dev.feedstore.core.LimitExceededException;
import dev.feedstore.core.Position;
import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.FeedStore;
import dev.feedstore.server.ServerSettings;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The in-memory state of every space the authority has served, loaded on first contact: the
 * server token is created then (in a write transaction, stored in the space's row, so a copy of
 * the database keeps it and a new database gets a new one), and the counter starts after the
 * highest stored position. A space not served before counts against {@code spaces-per-server}
 * (every space stays in the file, and in memory once touched), checked in the same transaction.
 *
 * <p>Thread-safe. Loading blocks while the store writes; later lookups do not touch the store.
 */
final class Spaces {
  private record Loaded(ServerToken token, Position maxPosition) {}

  private final FeedStore store;
  private final ServerSettings settings;
  private final Map<SpaceId, SpaceState> states = new ConcurrentHashMap<>();
  private final Object loading = new Object();

  Spaces(FeedStore store, ServerSettings settings) {
    this.store = store;
    this.settings = settings;
  }

  /** How many spaces are loaded. */
  int loadedCount() {
    return states.size();
  }

  /** The state of the space, loaded (and its token created) on first contact. */
  SpaceState get(SpaceId spaceId) {
    SpaceState state = states.get(spaceId);
    if (state != null) {
      return state;
    }
    synchronized (loading) {
      state = states.get(spaceId);
      if (state == null) {
        // One write transaction, so that no append can commit between reading the token and the
        // highest position.
        Loaded loaded = store.write(tx -> {
          if (tx.serverTokens().find(spaceId).isEmpty()) {
            long served = tx.serverTokens().count();
            if (served >= settings.spacesPerServer()) {
              throw new LimitExceededException(ServerSettings.Key.SPACES_PER_SERVER, settings.spacesPerServer(),
                  served + 1, "the server, with space '" + spaceId.value() + "' added,");
            }
          }
          return new Loaded(tx.serverTokens().findOrCreate(spaceId, ServerToken::random), tx.blocks().maxPosition(spaceId));
        });
        long max = loaded.maxPosition().value();
        state = new SpaceState(spaceId, loaded.token(), max,
            new SpaceTail(max, settings.tailBlocks(), settings.tailBytes()));
        states.put(spaceId, state);
      }
      return state;
    }
  }
}
