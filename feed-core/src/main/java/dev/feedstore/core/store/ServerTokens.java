package dev.feedstore.core.store;

import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The authority's server token of each space, stored with the space's data so that a copy of the
 * store carries it and a new store has none.
 */
public interface ServerTokens {

  /** The token of the space, if it has one. */
  Optional<ServerToken> find(SpaceId spaceId);

  /** The token of the space, created from {@code newToken} and stored if it has none yet. */
  ServerToken findOrCreate(SpaceId spaceId, Supplier<ServerToken> newToken);

  /** How many spaces have a token: the spaces an authority has served from this store. */
  long count();
}
