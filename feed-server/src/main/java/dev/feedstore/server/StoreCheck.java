package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.QUICK_CHECK_MS;

import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.sqlite.QuickCheck;
import dev.feedstore.sqlite.SqliteFeedStore;
import java.time.Duration;
import org.slf4j.Logger;

/**
 * The check of its database file that the runnable server makes before it listens: SQLite's
 * {@code PRAGMA quick_check}, table by table, for at most {@code quick-check-ms}. A damaged file is
 * refused, because a server that serves it answers every read of the damaged pages with an internal
 * error. A check that runs out of time lets the server start, with a warning that names the tables
 * it did not check whole: a large healthy file must not keep a server from starting (a restart loop
 * is worse than an unchecked file), damage it did not reach turns health NOT_SERVING when a read or
 * write meets it, and the operator who wants the file checked whole raises the setting.
 */
final class StoreCheck {
  private StoreCheck() {}

  /**
   * Checks {@code store}'s file for at most {@code limitMillis} (0 skips the check).
   *
   * @return what the check did, for the line that says the server is ready
   * @throws dev.feedstore.core.store.DamagedStoreException naming the file, what SQLite found and the
   *     fix, if the file is damaged
   */
  static String atStart(SqliteFeedStore store, long limitMillis, Logger log) {
    String flag = "--" + QUICK_CHECK_MS.name();
    if (limitMillis == 0) {
      return "quick_check skipped (" + flag + " 0)";
    }
    QuickCheck check = store.quickCheck(Duration.ofMillis(limitMillis));
    check.refuseDamaged(store.file(), "The server does not serve a damaged file: restore the last backup"
        + " (clients recover from the rollback), or move the file with its -wal and -shm aside to start with an"
        + " empty store (clients push their blocks again); " + flag + " 0 skips this check");
    if (!check.complete()) {
      log.warn("{} of {} ran out of time ({} {}); the tables not checked whole may hold damage: raise {} to check"
          + " them whole", check.summary(), store.file(), flag, limitMillis, flag);
    }
    return check.summary();
  }
}
