package dev.feedstore.sqlite.internal;

import static dev.feedstore.store.schema.Tables.SPACES;
import static dev.feedstore.store.schema.Tables.SYNC_STATE;
import static org.jooq.impl.DSL.excluded;

import dev.feedstore.core.ActorId;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.Sequence;
import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.SyncState;
import dev.feedstore.core.store.SyncStates;
import dev.feedstore.store.Params;
import dev.feedstore.store.Rendered;
import dev.feedstore.store.Rendering;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.TableField;
import org.jooq.impl.DSL;

/**
 * {@link SyncStates} in the {@code sync_state} table (read and written on every sync step). The
 * history gap is kept in the floor column of the space's row: on an authority it is what retention
 * removed; a replica removes nothing itself, and records there the authority's floor it was below.
 */
final class SqliteSyncStates implements SyncStates {
  /** The columns of a state, in the order it is read and written. */
  private static final List<TableField<?, ?>> STATE = List.of(SYNC_STATE.CURSOR, SYNC_STATE.CURSOR_FEED_ID,
      SYNC_STATE.CURSOR_ACTOR_ID, SYNC_STATE.CURSOR_SEQUENCE, SYNC_STATE.SERVER_TOKEN, SYNC_STATE.REPLAY_UNTIL,
      SYNC_STATE.CURSOR_CHAIN);
  private static final Queries QUERIES = new Queries(Rendering.of(SqliteDialect.INSTANCE.family()));

  /** The statements, rendered once. */
  private static final class Queries {
    final Rendered gap;
    final Rendered putGap;
    final Rendered get;
    final Rendered put;

    Queries(DSLContext sql) {
      gap = Rendered.of(sql.select(SPACES.FLOOR_POSITION).from(SPACES).where(SPACES.SPACE_PRIVATE_ID.eq(Params.SPACE)),
          Params.SPACE);
      putGap = Rendered.of(sql.update(SPACES).set(SPACES.FLOOR_POSITION, Params.POSITION)
          .where(SPACES.SPACE_PRIVATE_ID.eq(Params.SPACE)), Params.POSITION, Params.SPACE);
      get = Rendered.of(sql.select(STATE).from(SYNC_STATE).where(SYNC_STATE.SPACE_PRIVATE_ID.eq(Params.SPACE)),
          Params.SPACE);
      Param<?>[] values = new Param<?>[STATE.size() + 1];
      values[0] = Params.SPACE;
      Map<Field<?>, Field<?>> set = new LinkedHashMap<>();
      for (int i = 0; i < STATE.size(); i++) {
        TableField<?, ?> column = STATE.get(i);
        values[i + 1] = DSL.param(column.getName(), column.getDataType());
        set.put(column, excluded(column));
      }
      List<Field<?>> columns = new ArrayList<>(List.of(SYNC_STATE.SPACE_PRIVATE_ID));
      columns.addAll(STATE);
      put = Rendered.of(sql.insertInto(SYNC_STATE).columns(columns).values(values)
          .onConflict(SYNC_STATE.SPACE_PRIVATE_ID).doUpdate().set(set), values);
    }
  }

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
    Rendered get = QUERIES.get;
    return tx.sql().one(get, rs -> {
      String feed = get.getString(rs, SYNC_STATE.CURSOR_FEED_ID);
      Long chain = get.getNullableLong(rs, SYNC_STATE.CURSOR_CHAIN);
      return new SyncState(Position.of(get.getLong(rs, SYNC_STATE.CURSOR)),
          feed == null
              ? Optional.empty()
              : Optional.of(new BlockKey(new FeedId(feed), new ActorId(get.getString(rs, SYNC_STATE.CURSOR_ACTOR_ID)),
                  new Sequence(get.getLong(rs, SYNC_STATE.CURSOR_SEQUENCE)))),
          chain == null ? OptionalLong.empty() : OptionalLong.of(chain),
          Optional.ofNullable(get.getString(rs, SYNC_STATE.SERVER_TOKEN)).map(ServerToken::new),
          Position.of(get.getLong(rs, SYNC_STATE.REPLAY_UNTIL)));
    }, space.get()).orElse(SyncState.INITIAL);
  }

  @Override
  public void put(SpaceId spaceId, SyncState state) {
    long space = tx.space(spaceId);
    Optional<BlockKey> key = state.cursorBlock();
    tx.sql().update(QUERIES.put, space, state.cursor().value(),
        key.map(k -> k.feedId().value()).orElse(null),
        key.map(k -> k.actorId().value()).orElse(null),
        key.map(k -> k.sequence().value()).orElse(null),
        state.serverToken().map(ServerToken::value).orElse(null),
        state.replayUntil().value(),
        state.cursorChain().isPresent() ? (Object) state.cursorChain().getAsLong() : null);
  }

  @Override
  public Position historyGap(SpaceId spaceId) {
    return tx.findSpace(spaceId).map(space -> tx.sql().longValue(QUERIES.gap, space)).map(Position::of)
        .orElse(Position.NONE);
  }

  @Override
  public void putHistoryGap(SpaceId spaceId, Position floor) {
    tx.sql().update(QUERIES.putGap, floor.value(), tx.space(spaceId));
  }
}
