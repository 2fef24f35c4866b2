package dev.feedstore.core.store;

import dev.feedstore.core.SpaceId;

/** A replica's sync state per space. */
public interface SyncStates {

  /** The state of the space, {@link SyncState#INITIAL} if none was stored. */
  SyncState get(SpaceId spaceId);

  void put(SpaceId spaceId, SyncState state);
}
