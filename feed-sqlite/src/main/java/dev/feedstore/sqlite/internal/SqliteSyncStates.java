package dev.feedstore.sqlite.internal;

import dev.feedstore.core.ActorId;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.Sequence;
import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.SyncState;
import dev.feedstore.core.store.SyncStates;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@link SyncStates} in the {@code sync_state} table (read and written on every sync step). The
 * history gap is kept in the floor column of the space's row: on an authority it is what retention
 * removed; a replica removes nothing itself, and records there the authority's floor it was below.
 */
final class SqliteSyncStates implements SyncStates {
  private static final String GAP = "SELECT floor_position FROM spaces WHERE space_private_id = ?";
  private static final String PUT_GAP = "UPDATE spaces SET floor_position = ? WHERE space_private_id = ?";
  private static final String GET = "SELECT cursor, cursor_feed_id, cursor_actor_id, cursor_sequence, server_token,"
      + " replay_until, cursor_chain FROM sync_state WHERE space_private_id = ?";
  private static final String PUT = "INSERT INTO sync_state (space_private_id, cursor, cursor_feed_id,"
      + " cursor_actor_id, cursor_sequence, server_token, replay_until, cursor_chain) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
      + " ON CONFLICT (space_private_id) DO UPDATE SET cursor = excluded.cursor,"
      + " cursor_feed_id = excluded.cursor_feed_id, cursor_actor_id = excluded.cursor_actor_id,"
      + " cursor_sequence = excluded.cursor_sequence, server_token = excluded.server_token,"
      + " replay_until = excluded.replay_until, cursor_chain = excluded.cursor_chain";

  private final SqliteTransaction tx;

  SqliteSyncStates(SqliteTransaction tx) {
    this.tx = tx;
  }

  @Override
  public SyncState get(SpaceId spaceId) {
    Optional<Long> space = tx.findSpace(spaceId);
    if (space.isEmpty()) {
      return SyncState.INITIAL;
    }
    List<SyncState> states = Sql.list(tx, GET, rs -> {
      long cursor = rs.getLong(1);
      String feed = rs.getString(2);
      String actor = rs.getString(3);
      long sequence = rs.getLong(4);
      String token = rs.getString(5);
      long replayUntil = rs.getLong(6);
      long chain = rs.getLong(7);
      OptionalLong cursorChain = rs.wasNull() ? OptionalLong.empty() : OptionalLong.of(chain);
      return new SyncState(Position.of(cursor),
          feed == null
              ? Optional.empty()
              : Optional.of(new BlockKey(new FeedId(feed), new ActorId(actor), new Sequence(sequence))),
          cursorChain,
          Optional.ofNullable(token).map(ServerToken::new),
          Position.of(replayUntil));
    }, space.get());
    return states.isEmpty() ? SyncState.INITIAL : states.get(0);
  }

  @Override
  public void put(SpaceId spaceId, SyncState state) {
    long space = tx.space(spaceId);
    Optional<BlockKey> key = state.cursorBlock();
    Sql.update(tx, PUT, space, state.cursor().value(),
        key.map(k -> k.feedId().value()).orElse(null),
        key.map(k -> k.actorId().value()).orElse(null),
        key.map(k -> k.sequence().value()).orElse(null),
        state.serverToken().map(ServerToken::value).orElse(null),
        state.replayUntil().value(),
        state.cursorChain().isPresent() ? (Object) state.cursorChain().getAsLong() : null);
  }

  @Override
  public Position historyGap(SpaceId spaceId) {
    return tx.findSpace(spaceId).map(space -> Sql.longValue(tx, GAP, space)).map(Position::of).orElse(Position.NONE);
  }

  @Override
  public void putHistoryGap(SpaceId spaceId, Position floor) {
    Sql.update(tx, PUT_GAP, floor.value(), tx.space(spaceId));
  }
}
