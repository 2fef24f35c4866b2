package dev.feedstore.sqlite.internal;

import dev.feedstore.core.Block;
import java.sql.Connection;
import java.sql.SQLException;
import org.sqlite.Function;

/**
 * The checksum stored with every block ({@link dev.feedstore.core.store.BlockChecksum}, the same in
 * every store), and the SQL function that computes it in migrations. Stateless and thread-safe.
 */
final class BlockChecksum {
  /** The SQL function that computes it, for migrations: the arguments of {@link #of}, in order. */
  static final String SQL_FUNCTION = "feedstore_block_checksum";

  /** SQLite's type code of NULL ({@code SQLITE_NULL}). */
  private static final int SQLITE_NULL = 5;

  private BlockChecksum() {}

  /** The checksum of a block as it will be stored under its feed id. */
  static int of(Block block, byte[] data) {
    return dev.feedstore.core.store.BlockChecksum.of(block, data);
  }

  /**
   * The checksum of a block's stored values.
   *
   * @param prevActorId null for a block without predecessor (then {@code prevSequence} is ignored)
   */
  static int of(String feedId, String actorId, long sequence, String prevActorId, long prevSequence, long timestamp,
      byte[] data) {
    return dev.feedstore.core.store.BlockChecksum.of(feedId, actorId, sequence, prevActorId, prevSequence, timestamp,
        data);
  }

  /** Makes {@link #SQL_FUNCTION} callable on {@code connection}. */
  static void registerSqlFunction(Connection connection) throws SQLException {
    Function.create(connection, SQL_FUNCTION, new Function() {
      @Override
      protected void xFunc() throws SQLException {
        if (args() != 7) {
          error(SQL_FUNCTION + " takes 7 arguments, got " + args());
          return;
        }
        String prevActor = value_type(3) == SQLITE_NULL ? null : value_text(3);
        byte[] data = value_blob(6);
        result(of(String.valueOf(value_text(0)), String.valueOf(value_text(1)), value_long(2), prevActor,
            value_long(4), value_long(5), data == null ? new byte[0] : data));
      }
    }, 7, Function.FLAG_DETERMINISTIC);
  }
}
