package dev.feedstore.store.sqlite;

import dev.feedstore.core.store.BlockChecksum;
import java.sql.Connection;
import java.sql.SQLException;
import org.sqlite.Function;

/**
 * The checksum stored with every block ({@link BlockChecksum}) as an SQL function of a SQLite
 * connection, for the migration that computes it for the blocks of older files (SQLite has no
 * CRC32C). Stateless and thread-safe.
 */
final class ChecksumFunction {
  /** The function's name; its arguments are those of {@link BlockChecksum#of(String, String, long, String, long, long, byte[])}, in order. */
  static final String NAME = "feedstore_block_checksum";

  /** SQLite's type code of NULL ({@code SQLITE_NULL}). */
  private static final int SQLITE_NULL = 5;

  private ChecksumFunction() {}

  /** Makes {@link #NAME} callable on {@code connection}. */
  static void register(Connection connection) throws SQLException {
    Function.create(connection, NAME, new Function() {
      @Override
      protected void xFunc() throws SQLException {
        if (args() != 7) {
          error(NAME + " takes 7 arguments, got " + args());
          return;
        }
        String prevActor = value_type(3) == SQLITE_NULL ? null : value_text(3);
        byte[] data = value_blob(6);
        result(BlockChecksum.of(String.valueOf(value_text(0)), String.valueOf(value_text(1)), value_long(2), prevActor,
            value_long(4), value_long(5), data == null ? new byte[0] : data));
      }
    }, 7, Function.FLAG_DETERMINISTIC);
  }
}
