package dev.feedstore.postgres.internal;

import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.ServerTokens;
import java.util.List;
import java.util.Optional;

/**
 * {@link ServerTokens} in the {@code spaces} table, beside the space's counter; the token of a space
 * without one is derived from the database's secret, as on SQLite, so every process derives the
 * same one and a dump keeps them all.
 */
final class PgServerTokens implements ServerTokens {
  private static final String FIND = "SELECT server_token FROM spaces WHERE space_private_id = ?";
  /** Stores the token unless another transaction stored it first; either way the row then holds it. */
  private static final String STORE = "UPDATE spaces SET server_token = coalesce(server_token, ?)"
      + " WHERE space_private_id = ? RETURNING server_token";
  private static final String COUNT = "SELECT count(*) FROM spaces WHERE server_token IS NOT NULL";

  private final PgTransaction tx;

  PgServerTokens(PgTransaction tx) {
    this.tx = tx;
  }

  @Override
  public Optional<ServerToken> find(SpaceId spaceId) {
    return tx.findSpace(spaceId).flatMap(space -> {
      List<String> tokens = Sql.list(tx.connection, FIND, rs -> rs.getString(1), space);
      return tokens.isEmpty() ? Optional.<String>empty() : Optional.ofNullable(tokens.get(0));
    }).map(ServerToken::new);
  }

  @Override
  public ServerToken tokenOf(SpaceId spaceId) {
    return find(spaceId).orElseGet(() -> ServerToken.derive(tx.state.tokenKey(tx), spaceId));
  }

  @Override
  public ServerToken findOrCreate(SpaceId spaceId) {
    Optional<ServerToken> existing = find(spaceId);
    if (existing.isPresent()) {
      return existing.get();
    }
    long space = tx.space(spaceId);
    ServerToken token = ServerToken.derive(tx.state.tokenKey(tx), spaceId);
    List<String> stored = Sql.list(tx.connection, STORE, rs -> rs.getString(1), token.value(), space);
    return stored.isEmpty() ? token : new ServerToken(stored.get(0));
  }

  @Override
  public long count() {
    Long count = Sql.longValue(tx.connection, COUNT);
    return count == null ? 0 : count;
  }
}
