package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.BLOCK_BYTES;
import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.HTTP_IDLE_TIMEOUT_MS;
import static dev.feedstore.server.settings.ServerSettings.PRINCIPAL_REQUESTS_PER_SECOND;
import static dev.feedstore.server.settings.ServerSettings.STREAMS_SPACE;
import static dev.feedstore.server.settings.ServerSettings.WATCHES_PER_CONNECTION;
import static dev.feedstore.server.settings.ServerSettings.WRITE_PROBE_MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.postgres.PostgresSettings;
import dev.feedstore.postgres.PostgresStore;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.settings.Setting;
import dev.feedstore.server.settings.SettingOptions;
import dev.feedstore.sqlite.SqliteSettings;
import dev.feedstore.testing.CapturedErr;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class MainTest {
  @Test
  void helpListsEverySettingWithItsUnitDefaultAndDescription() {
    String help = new CommandLine(new Main()).getUsageMessage().replaceAll("\\s+", " ");

    for (Setting<?> setting : ServerSettings.ALL) {
      String option = "--" + setting.name() + "=" + setting.unit().label();
      int at = help.lastIndexOf(option);
      assertTrue(at >= 0, "--help lists " + option + ":\n" + help);
      String described = help.substring(at + option.length()).strip();
      // picocli prints the description's %% as %.
      String description = SettingOptions.description(setting).replace("%%", "%");
      assertTrue(described.startsWith(description + " Default: " + setting.defaultValue()),
          "--help describes " + option + " from its entry: " + described);
    }
    for (String flag : new String[] {"--db", "--host", "--port", "--metrics-host", "--sync", "--help", "--version",
        "--http-port", "--http-host", "--http-cors-origin", "--http-ui", "--jwt-jwks", "--jwt-hmac-secret",
        "--jwt-issuer", "--jwt-audience", "--jwt-grants-claim", "--postgres", "--postgres-password-file",
        "--postgres-pool-size"}) {
      assertTrue(help.contains(flag), flag);
    }
    assertTrue(help.contains("Default: feeds.db"), help);
    assertTrue(help.contains("Default: 127.0.0.1"), help);
    assertTrue(help.contains("Default: 7070"), help);
    assertTrue(help.contains("--block-bytes=BYTES Largest data of one block. Default: 1048576"), help);
    assertTrue(help.contains("--shared-pages=N Pages read from storage"), help);
    assertTrue(help.contains("Must be 1 to 65536. Default: 512"), help);
    assertTrue(help.contains("Default: FULL"), help);
  }

  @Test
  void postgresFlagsAndTheEnvironmentBecomeTheStoreSettings(@TempDir Path dir) throws Exception {
    Path password = dir.resolve("pgpass");
    Files.writeString(password, "s3cret\n");
    Main main = new Main();
    new CommandLine(main).parseArgs("--postgres", "jdbc:postgresql://db.internal/feeds", "--postgres-pool-size", "4",
        "--postgres-password-file", password.toString());

    PostgresSettings settings = main.postgresSettings(Map.of("PGUSER", "feeds", "PGPASSWORD", "ignored"));

    assertEquals(Optional.of("feeds"), settings.user());
    assertEquals(Optional.of("s3cret"), settings.password(), "the file wins over PGPASSWORD");
    assertEquals(4, settings.poolSize());
    assertEquals(Path.of("db.internal/feeds"), PostgresStore.databasePath(settings));

    Main inUrl = new Main();
    new CommandLine(inUrl).parseArgs("--postgres", "jdbc:postgresql://db.internal/feeds?user=app");
    PostgresSettings fromEnvironment = inUrl.postgresSettings(Map.of("PGUSER", "feeds", "PGPASSWORD", "pw"));
    assertEquals(Optional.empty(), fromEnvironment.user(), "the URL's user stands");
    assertEquals(Optional.of("pw"), fromEnvironment.password());
    assertEquals(PostgresSettings.DEFAULT_POOL_SIZE, fromEnvironment.poolSize());
    assertEquals(Optional.empty(), inUrl.postgresSettings(Map.of()).password(), "a trusted connection needs none");
  }

  @Test
  void flagsBecomeSettings() {
    Main main = new Main();
    new CommandLine(main).parseArgs("--block-bytes", "2048", "--watches-per-connection", "5", "--heartbeat-ms", "500",
        "--write-probe-ms", "250", "--principal-requests-per-second", "7", "--http-idle-timeout-ms", "900",
        "--streams-space", "durable");

    ServerSettings settings = main.settings();

    assertEquals(2048, settings.get(BLOCK_BYTES));
    assertEquals(5, settings.get(WATCHES_PER_CONNECTION));
    assertEquals(500, settings.get(HEARTBEAT_MS));
    assertEquals(250, settings.get(WRITE_PROBE_MS));
    assertEquals(7, settings.get(PRINCIPAL_REQUESTS_PER_SECOND));
    assertEquals(900, settings.get(HTTP_IDLE_TIMEOUT_MS));
    assertEquals("durable", settings.get(STREAMS_SPACE));
    assertEquals(ServerSettings.DEFAULTS.toBuilder().set(BLOCK_BYTES, 2048).set(WATCHES_PER_CONNECTION, 5)
        .set(HEARTBEAT_MS, 500).set(WRITE_PROBE_MS, 250).set(PRINCIPAL_REQUESTS_PER_SECOND, 7)
        .set(HTTP_IDLE_TIMEOUT_MS, 900).set(STREAMS_SPACE, "durable").build(), settings,
        "every other flag at its default");
    assertEquals(WRITE_PROBE_MS.defaultValue(), ServerSettings.DEFAULTS.get(WRITE_PROBE_MS));
  }

  @Test
  void storeFlagsBecomeStoreSettings() {
    Main main = new Main();
    new CommandLine(main).setCaseInsensitiveEnumValuesAllowed(true).parseArgs("--sync", "normal", "--cached-feeds", "1000");

    SqliteSettings settings = main.storeSettings();

    assertEquals(SqliteSettings.Synchronous.NORMAL, settings.synchronous());
    assertEquals(1000, settings.cachedFeeds());
    assertEquals(SqliteSettings.DEFAULT_CACHED_FEEDS, new Main().storeSettings().cachedFeeds());
  }

  @Test
  void aBadSettingExitsWithTwoNamingIt() {
    String text;
    try (CapturedErr err = new CapturedErr()) {
      assertEquals(2, Main.run("--watches-per-server", "0"));
      assertEquals(2, Main.run("--no-such-flag"));
      assertEquals(2, Main.run("--cached-feeds", "3"));
      assertEquals(2, Main.run("--http-ui", "examples/web"));
      assertEquals(2, Main.run("--jwt-jwks", "jwks.json", "--jwt-hmac-secret", "secret"));
      assertEquals(2, Main.run("--principal-streams", "0"));
      assertEquals(2, Main.run("--shared-pages", "70000"));
      assertEquals(2, Main.run("--streams-space", "two words"));
      assertEquals(2, Main.run("--watch-batch-blocks", "20", "--query-limit", "10"));
      text = err.text();
    }
    assertTrue(text.contains("--watches-per-server must be > 0, was 0"), text);
    assertTrue(text.contains("no-such-flag"), text);
    assertTrue(text.contains("--cached-feeds must be >= 16, was 3"), text);
    assertTrue(text.contains("--http-ui needs --http-port"), text);
    assertTrue(text.contains("JWT access needs exactly one of --jwt-jwks and --jwt-hmac-secret, got both"), text);
    assertTrue(text.contains("--principal-streams must be > 0, was 0"), text);
    assertTrue(text.contains("--shared-pages must be <= 65536, was 70000"), text);
    assertTrue(text.contains("--streams-space must be "), text);
    assertTrue(text.contains("--watch-batch-blocks must be <= query-limit (10), was 20"), text);
  }

  @Test
  void aDatabasePathThatCannotBeOpenedExitsWithOneSayingWhy(@TempDir Path dir) {
    String log;
    try (CapturedErr err = new CapturedErr()) {
      assertEquals(1, Main.run("--db", dir.resolve("missing/feeds.db").toString(), "--port", "0"));
      assertEquals(1, Main.run("--db", dir.toString(), "--port", "0"));
      log = err.text();
    }
    assertTrue(log.contains("cannot start: cannot open database file " + dir.resolve("missing/feeds.db") + ": its"
        + " directory " + dir.resolve("missing") + " does not exist"), log);
    assertTrue(log.contains("cannot start: cannot open database file " + dir + ": it is a directory"), log);
    assertTrue(!log.contains("\tat "), "no stack trace:\n" + log);
  }

  @Test
  void versionComesFromTheBuild() {
    assertTrue(Main.version().matches("\\d+\\.\\d+\\.\\d+.*"), Main.version());
  }
}
