package dev.feedstore.sqlite.internal;

import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.ServerTokens;
import java.util.List;
import java.util.Optional;

/**
 * {@link ServerTokens} in the {@code spaces} table, beside the space's data; the token of a space
 * without one is derived from the file's secret ({@link TokenKey}).
 */
final class SqliteServerTokens implements ServerTokens {
  private static final String FIND = "SELECT server_token FROM spaces WHERE space_private_id = ?";
  private static final String STORE = "UPDATE spaces SET server_token = ? WHERE space_private_id = ?";
  private static final String COUNT = "SELECT count(*) FROM spaces WHERE server_token IS NOT NULL";

  private final SqliteTransaction tx;

  SqliteServerTokens(SqliteTransaction tx) {
    this.tx = tx;
  }

  @Override
  public Optional<ServerToken> find(SpaceId spaceId) {
    return tx.findSpace(spaceId).flatMap(space -> {
      List<String> tokens = Sql.list(tx, FIND, rs -> rs.getString(1), space);
      return tokens.isEmpty() ? Optional.<String>empty() : Optional.ofNullable(tokens.get(0));
    }).map(ServerToken::new);
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
    Sql.update(tx, STORE, token.value(), space);
    return token;
  }

  @Override
  public long count() {
    Long count = Sql.longValue(tx, COUNT);
    return count == null ? 0 : count;
  }
}
