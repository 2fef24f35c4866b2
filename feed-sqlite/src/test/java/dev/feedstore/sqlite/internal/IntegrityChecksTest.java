package dev.feedstore.sqlite.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.sqlite.QuickCheck;
import dev.feedstore.sqlite.SqliteSettings;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.ProgressHandler;
import dev.feedstore.store.sqlite.SchemaMigrator;

class IntegrityChecksTest {
  @TempDir Path dir;

  @Test
  void aCheckThatRunsOutOfTimeIsInterruptedAndReportedIncomplete() throws Exception {
    Path file = dir.resolve("slow.db");
    SqliteStore.open(file, SqliteSettings.DEFAULTS, SchemaMigrator.builtIn()).close();
    CountDownLatch cancelled = new CountDownLatch(1);
    IntegrityChecks.Connector standingStill = () ->
        cancelSignalling(DriverManager.getConnection("jdbc:sqlite:" + file), cancelled);

    long start = System.nanoTime();
    // The time counts from before the connection opens; it must outlast opening it and listing the
    // tables on a busy machine, or the check ends before its first statement and cancels nothing.
    QuickCheck check = IntegrityChecks.quickCheck(file, standingStill, Duration.ofSeconds(2));

    assertEquals(0, cancelled.getCount(), "the statement was cancelled");
    assertFalse(check.complete(), check.toString());
    assertEquals(List.of(), check.checked(), "the first table stood still until the time was up");
    assertTrue(check.unchecked().containsAll(List.of("sqlite_schema", "feeds", "blocks")), check.toString());
    assertEquals(List.of(), check.problems());
    assertTrue(check.elapsed().toMillis() >= 2_000, check.toString());
    assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(20), "the check returned once interrupted");
  }

  /**
   * {@code connection}, whose statements count {@code cancelled} down after they are cancelled, and
   * on which a quick_check stands still, as one over a huge file would seem to, until it is.
   */
  private static Connection cancelSignalling(Connection connection, CountDownLatch cancelled) {
    InvocationHandler onConnection = (proxy, method, args) -> {
      Object result = invoke(connection, method, args);
      if (!(result instanceof Statement statement)) {
        return result;
      }
      return Proxy.newProxyInstance(Statement.class.getClassLoader(), new Class<?>[] {Statement.class},
          (statementProxy, statementMethod, statementArgs) -> {
            if (statementMethod.getName().equals("executeQuery") && String.valueOf(statementArgs[0])
                .startsWith("PRAGMA quick_check")) {
              // SQLite calls the handler every 10 steps of its virtual machine.
              ProgressHandler.setHandler(connection, 10, new ProgressHandler() {
                @Override
                protected int progress() {
                  awaitQuietly(cancelled);
                  return 0;
                }
              });
            }
            Object answer = invoke(statement, statementMethod, statementArgs);
            if (statementMethod.getName().equals("cancel")) {
              cancelled.countDown();
            }
            return answer;
          });
    };
    return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
        onConnection);
  }

  private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
