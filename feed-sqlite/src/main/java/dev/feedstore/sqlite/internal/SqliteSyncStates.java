package dev.feedstore.sqlite.internal;

import static dev.feedstore.sqlite.internal.Tables.SYNC_CURSOR;
import static dev.feedstore.sqlite.internal.Tables.SYNC_CURSOR_ACTOR;
import static dev.feedstore.sqlite.internal.Tables.SYNC_CURSOR_FEED;
import static dev.feedstore.sqlite.internal.Tables.SYNC_CURSOR_SEQUENCE;
import static dev.feedstore.sqlite.internal.Tables.SYNC_REPLAY_UNTIL;
import static dev.feedstore.sqlite.internal.Tables.SYNC_SERVER_TOKEN;
import static dev.feedstore.sqlite.internal.Tables.SYNC_SPACE;
import static dev.feedstore.sqlite.internal.Tables.SYNC_STATE;

import dev.feedstore.core.ActorId;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.Sequence;
import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.SyncState;
import dev.feedstore.core.store.SyncStates;
import java.util.Optional;

/** {@link SyncStates} in the {@code sync_state} table. */
final class SqliteSyncStates implements SyncStates {
  private final SqliteTransaction tx;

  SqliteSyncStates(SqliteTransaction tx) {
    this.tx = tx;
  }

  @Override
  public SyncState get(SpaceId spaceId) {
    return tx.findSpace(spaceId).flatMap(space -> tx.dsl
            .select(SYNC_CURSOR, SYNC_CURSOR_FEED, SYNC_CURSOR_ACTOR, SYNC_CURSOR_SEQUENCE, SYNC_SERVER_TOKEN,
                SYNC_REPLAY_UNTIL)
            .from(SYNC_STATE).where(SYNC_SPACE.eq(space))
            .fetchOptional(r -> new SyncState(
                Position.of(r.value1()),
                r.value2() == null
                    ? Optional.empty()
                    : Optional.of(new BlockKey(new FeedId(r.value2()), new ActorId(r.value3()), new Sequence(r.value4()))),
                Optional.ofNullable(r.value5()).map(ServerToken::new),
                Position.of(r.value6()))))
        .orElse(SyncState.INITIAL);
  }

  @Override
  public void put(SpaceId spaceId, SyncState state) {
    long space = tx.space(spaceId);
    Optional<BlockKey> key = state.cursorBlock();
    String feed = key.map(k -> k.feedId().value()).orElse(null);
    String actor = key.map(k -> k.actorId().value()).orElse(null);
    Long sequence = key.map(k -> k.sequence().value()).orElse(null);
    String token = state.serverToken().map(ServerToken::value).orElse(null);
    tx.dsl.insertInto(SYNC_STATE)
        .columns(SYNC_SPACE, SYNC_CURSOR, SYNC_CURSOR_FEED, SYNC_CURSOR_ACTOR, SYNC_CURSOR_SEQUENCE,
            SYNC_SERVER_TOKEN, SYNC_REPLAY_UNTIL)
        .values(space, state.cursor().value(), feed, actor, sequence, token, state.replayUntil().value())
        .onConflict(SYNC_SPACE).doUpdate()
        .set(SYNC_CURSOR, state.cursor().value())
        .set(SYNC_CURSOR_FEED, feed)
        .set(SYNC_CURSOR_ACTOR, actor)
        .set(SYNC_CURSOR_SEQUENCE, sequence)
        .set(SYNC_SERVER_TOKEN, token)
        .set(SYNC_REPLAY_UNTIL, state.replayUntil().value())
        .execute();
  }
}
