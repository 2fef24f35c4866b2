package dev.feedstore.sqlite.internal;

import static dev.feedstore.sqlite.internal.Tables.SPACES;
import static dev.feedstore.sqlite.internal.Tables.SPACES_PRIVATE_ID;
import static dev.feedstore.sqlite.internal.Tables.SPACES_SERVER_TOKEN;

import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.ServerTokens;
import java.util.Optional;

/**
 * {@link ServerTokens} in the {@code spaces} table, beside the space's data; the token of a space
 * without one is derived from the file's secret ({@link TokenKey}).
 */
final class SqliteServerTokens implements ServerTokens {
  private final SqliteTransaction tx;

  SqliteServerTokens(SqliteTransaction tx) {
    this.tx = tx;
  }

  @Override
  public Optional<ServerToken> find(SpaceId spaceId) {
    return tx.findSpace(spaceId).flatMap(space -> Optional.ofNullable(
        tx.dsl.select(SPACES_SERVER_TOKEN).from(SPACES).where(SPACES_PRIVATE_ID.eq(space)).fetchOne().value1()))
        .map(ServerToken::new);
  }

  @Override
  public ServerToken tokenOf(SpaceId spaceId) {
    return find(spaceId).orElseGet(() -> ServerToken.derive(tx.tokenKey.get(tx), spaceId));
  }

  @Override
  public ServerToken findOrCreate(SpaceId spaceId) {
    Optional<ServerToken> existing = find(spaceId);
    if (existing.isPresent()) {
      return existing.get();
    }
    long space = tx.space(spaceId);
    ServerToken token = ServerToken.derive(tx.tokenKey.get(tx), spaceId);
    tx.dsl.update(SPACES).set(SPACES_SERVER_TOKEN, token.value()).where(SPACES_PRIVATE_ID.eq(space)).execute();
    return token;
  }

  @Override
  public long count() {
    return tx.dsl.fetchCount(SPACES, SPACES_SERVER_TOKEN.isNotNull());
  }
}
