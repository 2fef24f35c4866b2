package dev.feedstore.server;

import static dev.feedstore.server.ServerSettings.QUICK_CHECK_MS;

import dev.feedstore.core.store.StoreException;
import dev.feedstore.sqlite.QuickCheck;
import dev.feedstore.sqlite.SqliteFeedStore;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;

/**
 * The check of its database file that the runnable server makes before it listens: SQLite's
 * {@code PRAGMA quick_check}, for at most {@code quick-check-ms}. A damaged file is refused, because
 * a server that serves it answers every read of the damaged pages with an internal error while its
 * health says SERVING. A check that runs out of time lets the server start, with a warning: a large
 * healthy file must not keep a server from starting (a restart loop is worse than an unchecked
 * file), and the operator who wants it checked whole raises the setting.
 */
final class StoreCheck {
  /** How many of the problems SQLite found the refusal quotes. */
  private static final int QUOTED = 3;

  private StoreCheck() {}

  /**
   * Checks {@code store}'s file for at most {@code limitMillis} (0 skips the check).
   *
   * @return how the check went, for the line that says the server is ready
   * @throws StoreException naming the file, what SQLite found and the fix, if the file is damaged
   */
  static String atStart(SqliteFeedStore store, long limitMillis, Logger log) {
    String flag = "--" + QUICK_CHECK_MS.name();
    if (limitMillis == 0) {
      return "quick_check skipped (" + flag + " 0)";
    }
    QuickCheck check = store.quickCheck(Duration.ofMillis(limitMillis));
    if (check.damaged()) {
      List<String> quoted = check.problems().subList(0, Math.min(QUOTED, check.problems().size()));
      throw new StoreException("database file " + store.file() + " is damaged: SQLite's quick_check found "
          + (check.problems().size() > QUOTED ? check.problems().size() + " problems, the first: " : "")
          + String.join("; ", quoted) + ". The server does not serve a damaged file: restore the last backup"
          + " (clients recover from the rollback), or move the file with its -wal and -shm aside to start with an"
          + " empty store (clients push their blocks again); " + flag + " 0 skips this check");
    }
    if (!check.complete()) {
      log.warn("quick_check of {} stopped after {} ms ({}) with no damage found in what it read; the rest of the file"
          + " was not checked: raise {} to check it whole", store.file(), check.elapsed().toMillis(), flag, flag);
      return "quick_check incomplete after " + check.elapsed().toMillis() + " ms";
    }
    return "quick_check ok in " + check.elapsed().toMillis() + " ms";
  }
}
