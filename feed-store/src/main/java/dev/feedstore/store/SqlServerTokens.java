package dev.feedstore.store;

import static dev.feedstore.store.schema.Tables.SPACES;
import static dev.feedstore.store.schema.Tables.STORE_SECRET;
import static org.jooq.impl.DSL.coalesce;
import static org.jooq.impl.DSL.inline;

import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.ServerTokens;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.Param;
import org.jooq.impl.DSL;

/**
 * {@link ServerTokens} in the {@code spaces} table, beside the space's data; the token of a space
 * without one is derived from the store's secret ({@link TokenKey}), so every process derives the
 * same one and a copy of the store keeps them all.
 */
final class SqlServerTokens implements ServerTokens {
  /** The statements of the tokens, rendered once per dialect. */
  static final class Queries {
    private static final Param<String> TOKEN = Params.text("token");

    final Rendered find;
    final Rendered store;
    final Rendered count;
    final Rendered secret;

    Queries(DSLContext sql) {
      find = Rendered.of(sql.select(SPACES.SERVER_TOKEN).from(SPACES).where(SPACES.SPACE_PRIVATE_ID.eq(Params.SPACE)),
          Params.SPACE);
      // Stores the token unless another transaction stored it first; either way the row then holds it.
      store = Rendered.of(sql.update(SPACES).set(SPACES.SERVER_TOKEN, coalesce(SPACES.SERVER_TOKEN, TOKEN))
          .where(SPACES.SPACE_PRIVATE_ID.eq(Params.SPACE)).returningResult(SPACES.SERVER_TOKEN), TOKEN, Params.SPACE);
      count = Rendered.of(sql.select(DSL.count()).from(SPACES).where(SPACES.SERVER_TOKEN.isNotNull()));
      secret = Rendered.of(sql.select(STORE_SECRET.TOKEN_KEY).from(STORE_SECRET).where(STORE_SECRET.SECRET_ID.eq(inline(1))));
    }
  }

  private final SqlTransaction tx;
  private final Queries queries;

  SqlServerTokens(SqlTransaction tx) {
    this.tx = tx;
    this.queries = tx.queries().tokens;
  }

  @Override
  public Optional<ServerToken> find(SpaceId spaceId) {
    return tx.findSpace(spaceId).flatMap(space -> Optional.ofNullable(tx.sql().stringValue(queries.find, space)))
        .map(ServerToken::new);
  }

  @Override
  public ServerToken tokenOf(SpaceId spaceId) {
    return find(spaceId).orElseGet(() -> ServerToken.derive(tx.tokenKey().get(tx), spaceId));
  }

  @Override
  public ServerToken findOrCreate(SpaceId spaceId) {
    Optional<ServerToken> existing = find(spaceId);
    if (existing.isPresent()) {
      return existing.get();
    }
    long space = tx.space(spaceId);
    ServerToken token = ServerToken.derive(tx.tokenKey().get(tx), spaceId);
    String stored = tx.sql().stringValue(queries.store, token.value(), space);
    return stored == null ? token : new ServerToken(stored);
  }

  @Override
  public long count() {
    Long count = tx.sql().longValue(queries.count);
    return count == null ? 0 : count;
  }
}
