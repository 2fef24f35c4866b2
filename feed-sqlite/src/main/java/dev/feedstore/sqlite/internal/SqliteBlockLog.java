package dev.feedstore.sqlite.internal;

import static dev.feedstore.sqlite.internal.Tables.BLOCKS;
import static dev.feedstore.sqlite.internal.Tables.BLOCKS_ACTOR;
import static dev.feedstore.sqlite.internal.Tables.BLOCKS_DATA;
import static dev.feedstore.sqlite.internal.Tables.BLOCKS_FEED;
import static dev.feedstore.sqlite.internal.Tables.BLOCKS_POSITION;
import static dev.feedstore.sqlite.internal.Tables.BLOCKS_PREV_ACTOR;
import static dev.feedstore.sqlite.internal.Tables.BLOCKS_PREV_SEQUENCE;
import static dev.feedstore.sqlite.internal.Tables.BLOCKS_PUBLISHED;
import static dev.feedstore.sqlite.internal.Tables.BLOCKS_SEQUENCE;
import static dev.feedstore.sqlite.internal.Tables.BLOCKS_SPACE;
import static dev.feedstore.sqlite.internal.Tables.BLOCKS_TIMESTAMP;
import static dev.feedstore.sqlite.internal.Tables.FEEDS;
import static dev.feedstore.sqlite.internal.Tables.FEEDS_FEED_ID;
import static dev.feedstore.sqlite.internal.Tables.FEEDS_NAMESPACE;
import static dev.feedstore.sqlite.internal.Tables.FEEDS_PRIVATE_ID;
import static dev.feedstore.sqlite.internal.Tables.FEEDS_SPACE;
import static org.jooq.impl.DSL.count;
import static org.jooq.impl.DSL.falseCondition;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.max;
import static org.jooq.impl.DSL.noCondition;
import static org.jooq.impl.DSL.when;

import dev.feedstore.core.ActorId;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Predecessor;
import dev.feedstore.core.Scope;
import dev.feedstore.core.Sequence;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.BlockLog;
import dev.feedstore.core.store.InsertOutcome;
import dev.feedstore.core.store.UniquenessViolationException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.SelectOnConditionStep;

/** {@link BlockLog} over the {@code blocks} table. */
final class SqliteBlockLog implements BlockLog {
  private static final List<Field<?>> BLOCK_COLUMNS = List.of(FEEDS_FEED_ID, BLOCKS_POSITION, BLOCKS_SEQUENCE,
      BLOCKS_ACTOR, BLOCKS_PREV_SEQUENCE, BLOCKS_PREV_ACTOR, BLOCKS_TIMESTAMP, BLOCKS_DATA);

  private final SqliteTransaction tx;

  SqliteBlockLog(SqliteTransaction tx) {
    this.tx = tx;
  }

  @Override
  public InsertOutcome insert(SpaceId spaceId, Block block) {
    return insert(spaceId, block, true);
  }

  @Override
  public InsertOutcome insertLocal(SpaceId spaceId, Block block) {
    return insert(spaceId, block, false);
  }

  private InsertOutcome insert(SpaceId spaceId, Block block, boolean published) {
    FeedRow feed = tx.requireFeed(spaceId, block.feedId());
    int inserted = tx.dsl.insertInto(BLOCKS)
        .columns(BLOCKS_SPACE, BLOCKS_FEED, BLOCKS_POSITION, BLOCKS_SEQUENCE, BLOCKS_ACTOR,
            BLOCKS_PREV_SEQUENCE, BLOCKS_PREV_ACTOR, BLOCKS_TIMESTAMP, BLOCKS_DATA, BLOCKS_PUBLISHED)
        .values(feed.spacePrivateId(), feed.privateId(), positionValue(block.position()),
            block.sequence().value(), block.actorId().value(),
            block.predecessor().map(p -> p.sequence().value()).orElse(null),
            block.predecessor().map(p -> p.actorId().value()).orElse(null),
            block.timestamp(), block.data().toByteArray(), published ? 1 : 0)
        .onConflictDoNothing()
        .execute();
    if (inserted == 1) {
      tx.countInserted(feed.privateId());
      return new InsertOutcome.Inserted(block);
    }
    Optional<Block> stored = find(feed, block.key());
    if (stored.isEmpty()) {
      Block holder = atPosition(spaceId, block.position()).orElse(null);
      throw new UniquenessViolationException("(space, position)",
          "position " + block.position() + " in space " + spaceId + " is held by "
              + (holder == null ? "another block" : "block " + holder.key())
              + "; cannot store block " + block.key() + " there", null);
    }
    return stored.get().sameContentAs(block)
        ? new InsertOutcome.Duplicate(stored.get())
        : new InsertOutcome.Conflict(stored.get(), block);
  }

  @Override
  public void markPublished(SpaceId spaceId, Collection<BlockKey> keys, boolean published) {
    for (BlockKey key : keys) {
      tx.findFeed(spaceId, key.feedId()).ifPresent(feed -> tx.dsl.update(BLOCKS)
          .set(BLOCKS_PUBLISHED, published ? 1 : 0)
          .where(keyCondition(feed, key))
          .execute());
    }
  }

  @Override
  public java.util.Set<BlockKey> unpublished(SpaceId spaceId, Collection<BlockKey> keys) {
    java.util.Set<BlockKey> result = new java.util.LinkedHashSet<>();
    for (BlockKey key : keys) {
      Optional<FeedRow> feed = tx.findFeed(spaceId, key.feedId());
      if (feed.isPresent() && tx.dsl.fetchExists(tx.dsl.selectOne().from(BLOCKS)
          .where(keyCondition(feed.get(), key)).and(BLOCKS_PUBLISHED.eq(0)))) {
        result.add(key);
      }
    }
    return result;
  }

  @Override
  public Optional<Block> find(SpaceId spaceId, BlockKey key) {
    return tx.findFeed(spaceId, key.feedId()).flatMap(feed -> find(feed, key));
  }

  private Optional<Block> find(FeedRow feed, BlockKey key) {
    return selectBlocks()
        .where(BLOCKS_FEED.eq(feed.privateId()))
        .and(BLOCKS_SEQUENCE.eq(key.sequence().value()))
        .and(BLOCKS_ACTOR.eq(key.actorId().value()))
        .fetchOptional(SqliteBlockLog::toBlock);
  }

  @Override
  public Map<BlockKey, Block> findAll(SpaceId spaceId, Collection<BlockKey> keys) {
    Map<BlockKey, Block> found = new LinkedHashMap<>();
    for (BlockKey key : keys) {
      find(spaceId, key).ifPresent(block -> found.put(key, block));
    }
    return found;
  }

  @Override
  public Optional<Block> atPosition(SpaceId spaceId, Position position) {
    if (!position.isAssigned()) {
      return Optional.empty();
    }
    return tx.findSpace(spaceId).flatMap(space -> selectBlocks()
        .where(BLOCKS_SPACE.eq(space))
        .and(BLOCKS_POSITION.eq(position.value()))
        .fetchOptional(SqliteBlockLog::toBlock));
  }

  @Override
  public List<Block> feed(SpaceId spaceId, FeedId feedId) {
    return tx.findFeed(spaceId, feedId).map(feed -> selectBlocks()
        .where(BLOCKS_FEED.eq(feed.privateId()))
        .orderBy(when(BLOCKS_POSITION.isNull(), inline(1)).otherwise(inline(0)),
            BLOCKS_POSITION, BLOCKS_SEQUENCE, BLOCKS_ACTOR)
        .fetch(SqliteBlockLog::toBlock)).orElse(List.of());
  }

  @Override
  public Optional<Block> lastInFeed(SpaceId spaceId, FeedId feedId) {
    return tx.findFeed(spaceId, feedId).flatMap(feed -> selectBlocks()
        .where(BLOCKS_FEED.eq(feed.privateId()))
        .orderBy(when(BLOCKS_POSITION.isNull(), inline(1)).otherwise(inline(0)).desc(),
            BLOCKS_POSITION.desc(), BLOCKS_SEQUENCE.desc(), BLOCKS_ACTOR.desc())
        .limit(1)
        .fetchOptional(SqliteBlockLog::toBlock));
  }

  @Override
  public Optional<Sequence> maxSequence(SpaceId spaceId, FeedId feedId) {
    return tx.findFeed(spaceId, feedId).flatMap(feed -> Optional.ofNullable(
        tx.dsl.select(max(BLOCKS_SEQUENCE)).from(BLOCKS).where(BLOCKS_FEED.eq(feed.privateId())).fetchOne().value1())
        .map(Sequence::new));
  }

  @Override
  public List<Block> after(SpaceId spaceId, Scope scope, Position cursor, int limit) {
    Optional<Long> space = tx.findSpace(spaceId);
    if (space.isEmpty()) {
      return List.of();
    }
    return selectBlocks()
        .where(BLOCKS_SPACE.eq(space.get()))
        .and(BLOCKS_POSITION.gt(cursor.value()))
        .and(scopeCondition(space.get(), scope))
        .orderBy(BLOCKS_POSITION)
        .limit(limit)
        .fetch(SqliteBlockLog::toBlock);
  }

  @Override
  public Optional<Block> lastBefore(SpaceId spaceId, Position position) {
    return tx.findSpace(spaceId).flatMap(space -> selectBlocks()
        .where(BLOCKS_SPACE.eq(space))
        .and(BLOCKS_POSITION.lt(position.value()))
        .orderBy(BLOCKS_POSITION.desc())
        .limit(1)
        .fetchOptional(SqliteBlockLog::toBlock));
  }

  @Override
  public Position maxPosition(SpaceId spaceId) {
    return tx.findSpace(spaceId)
        .map(space -> SqliteFeedCatalog.positionOf(tx.dsl.select(max(BLOCKS_POSITION)).from(BLOCKS)
            .where(BLOCKS_SPACE.eq(space)).fetchOne().value1()))
        .orElse(Position.NONE);
  }

  @Override
  public List<Block> unpositioned(SpaceId spaceId, Scope scope, int limit) {
    Optional<Long> space = tx.findSpace(spaceId);
    if (space.isEmpty()) {
      return List.of();
    }
    return selectBlocks()
        .where(BLOCKS_SPACE.eq(space.get()))
        .and(BLOCKS_POSITION.isNull())
        .and(scopeCondition(space.get(), scope))
        .orderBy(BLOCKS_FEED, BLOCKS_SEQUENCE, BLOCKS_ACTOR)
        .limit(limit)
        .fetch(SqliteBlockLog::toBlock);
  }

  @Override
  public long countUnpositioned(SpaceId spaceId, Scope scope) {
    Optional<Long> space = tx.findSpace(spaceId);
    if (space.isEmpty()) {
      return 0;
    }
    return tx.dsl.select(count()).from(BLOCKS)
        .where(BLOCKS_SPACE.eq(space.get()))
        .and(BLOCKS_POSITION.isNull())
        .and(scopeCondition(space.get(), scope))
        .fetchOne().value1();
  }

  @Override
  public boolean setPosition(SpaceId spaceId, BlockKey key, Position position) {
    Optional<FeedRow> feed = tx.findFeed(spaceId, key.feedId());
    if (feed.isEmpty()) {
      return false;
    }
    try {
      return tx.dsl.update(BLOCKS)
          .set(BLOCKS_POSITION, positionValue(position))
          .where(keyCondition(feed.get(), key))
          .execute() == 1;
    } catch (RuntimeException e) {
      if (SqlErrors.isSqlError(e)) {
        Block holder = atPosition(spaceId, position).orElse(null);
        throw new UniquenessViolationException(SqlErrors.constraintOf(String.valueOf(e.getMessage())),
            "position " + position + " in space " + spaceId + " is held by "
                + (holder == null ? "another block" : "block " + holder.key())
                + "; cannot give it to block " + key, e);
      }
      throw e;
    }
  }

  @Override
  public int clearPositions(SpaceId spaceId) {
    return tx.findSpace(spaceId).map(space -> tx.dsl.update(BLOCKS)
        .setNull(BLOCKS_POSITION)
        .where(BLOCKS_SPACE.eq(space).and(BLOCKS_POSITION.isNotNull()))
        .execute()).orElse(0);
  }

  @Override
  public int clearPositionsAbove(SpaceId spaceId, Position position) {
    return tx.findSpace(spaceId).map(space -> tx.dsl.update(BLOCKS)
        .setNull(BLOCKS_POSITION)
        .where(BLOCKS_SPACE.eq(space).and(BLOCKS_POSITION.gt(position.value())))
        .execute()).orElse(0);
  }

  @Override
  public void rekey(SpaceId spaceId, BlockKey key, Sequence newSequence) {
    FeedRow feed = tx.requireFeed(spaceId, key.feedId());
    Block block = find(feed, key).orElseThrow(() ->
        new IllegalStateException("cannot re-key block " + key + ": it is not stored"));
    if (block.isPositioned()) {
      throw new IllegalStateException("cannot re-key block " + key + ": it is positioned at "
          + block.position() + ", and positioned blocks are immutable");
    }
    try {
      tx.dsl.update(BLOCKS).set(BLOCKS_SEQUENCE, newSequence.value())
          .where(keyCondition(feed, key)).execute();
    } catch (RuntimeException e) {
      if (SqlErrors.isSqlError(e)) {
        throw new UniquenessViolationException("(feed, sequence, actor)", "cannot re-key block " + key
            + " to sequence " + newSequence + ": that key is taken", e);
      }
      throw e;
    }
    relinkUnpublished(feed, key, newSequence);
  }

  @Override
  public void mergeInto(SpaceId spaceId, BlockKey from, BlockKey to) {
    FeedRow feed = tx.requireFeed(spaceId, from.feedId());
    Block source = find(feed, from).orElseThrow(() ->
        new IllegalStateException("cannot merge block " + from + ": it is not stored"));
    Block target = find(spaceId, to).orElseThrow(() ->
        new IllegalStateException("cannot merge block " + from + " into " + to + ": " + to + " is not stored"));
    if (source.isPositioned() || !to.feedId().equals(from.feedId()) || !to.actorId().equals(from.actorId())
        || !source.withSequence(to.sequence()).sameContentAs(target)) {
      throw new IllegalStateException("cannot merge block " + from + " into " + to
          + ": only an unpositioned block with the same content may merge");
    }
    relinkUnpublished(feed, from, to.sequence());
    tx.dsl.deleteFrom(BLOCKS).where(keyCondition(feed, from)).execute();
    tx.countInserted(feed.privateId(), -1);
  }

  private void relinkUnpublished(FeedRow feed, BlockKey key, Sequence newSequence) {
    tx.dsl.update(BLOCKS).set(BLOCKS_PREV_SEQUENCE, newSequence.value())
        .where(BLOCKS_FEED.eq(feed.privateId()))
        .and(BLOCKS_PREV_ACTOR.eq(key.actorId().value()))
        .and(BLOCKS_PREV_SEQUENCE.eq(key.sequence().value()))
        .and(BLOCKS_POSITION.isNull())
        .and(BLOCKS_PUBLISHED.eq(0))
        .execute();
  }

  private SelectOnConditionStep<Record> selectBlocks() {
    return tx.dsl.select(BLOCK_COLUMNS)
        .from(BLOCKS).join(FEEDS).on(FEEDS_PRIVATE_ID.eq(BLOCKS_FEED));
  }

  private Condition scopeCondition(long space, Scope scope) {
    if (scope instanceof Scope.Selection selection) {
      if (selection.isEmpty()) {
        return falseCondition();
      }
      Condition member = falseCondition();
      if (!selection.feeds().isEmpty()) {
        member = member.or(FEEDS_FEED_ID.in(selection.feeds().stream().map(FeedId::value).toList()));
      }
      if (!selection.namespaces().isEmpty()) {
        member = member.or(FEEDS_NAMESPACE.in(selection.namespaces().stream().map(Namespace::value).toList()));
      }
      return BLOCKS_FEED.in(tx.dsl.select(FEEDS_PRIVATE_ID).from(FEEDS).where(FEEDS_SPACE.eq(space)).and(member));
    }
    return noCondition();
  }

  private static Condition keyCondition(FeedRow feed, BlockKey key) {
    return BLOCKS_FEED.eq(feed.privateId())
        .and(BLOCKS_SEQUENCE.eq(key.sequence().value()))
        .and(BLOCKS_ACTOR.eq(key.actorId().value()));
  }

  private static Long positionValue(Position position) {
    return position.isAssigned() ? position.value() : null;
  }

  static Block toBlock(Record r) {
    FeedId feedId = new FeedId(r.get(FEEDS_FEED_ID));
    Long prevSequence = r.get(BLOCKS_PREV_SEQUENCE);
    Optional<Predecessor> predecessor = prevSequence == null
        ? Optional.empty()
        : Optional.of(new Predecessor(new ActorId(r.get(BLOCKS_PREV_ACTOR)), new Sequence(prevSequence)));
    Long position = r.get(BLOCKS_POSITION);
    return new Block(
        new BlockKey(feedId, new ActorId(r.get(BLOCKS_ACTOR)), new Sequence(r.get(BLOCKS_SEQUENCE))),
        predecessor,
        r.get(BLOCKS_TIMESTAMP),
        BlockData.copyOf(r.get(BLOCKS_DATA)),
        position == null ? Position.NONE : Position.of(position));
  }
}
