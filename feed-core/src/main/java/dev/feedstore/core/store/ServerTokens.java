package dev.feedstore.core.store;

import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import java.util.Optional;

/**
 * The authority's server token of each space, stored with the space's data so that a copy of the
 * store carries it and a new store has none. A space that has no stored token yet still has a
 * token, {@link #tokenOf}: derived from a secret the store keeps once ({@link
 * ServerToken#derive}), so a copy of the store derives the same tokens and a new store others.
 * Storing a space's token ({@link #findOrCreate}) stores that one; a token stored before keeps its
 * value.
 */
public interface ServerTokens {

  /** The stored token of the space, if it has one. */
  Optional<ServerToken> find(SpaceId spaceId);

  /**
   * The token of the space: the stored one, or else the one {@link #findOrCreate} would store.
   * Writes nothing, so a read transaction may ask for any space.
   */
  ServerToken tokenOf(SpaceId spaceId);

  /** The stored token of the space, storing {@link #tokenOf} first if it has none. */
  ServerToken findOrCreate(SpaceId spaceId);

  /** How many spaces have a stored token: the spaces an authority has served from this store. */
  long count();
}
