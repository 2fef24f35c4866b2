package dev.feedstore.server.settings;

import static dev.feedstore.server.settings.ServerSettings.BLOCKS_PER_APPEND;
import static dev.feedstore.server.settings.ServerSettings.BLOCK_BYTES;
import static dev.feedstore.server.settings.ServerSettings.FEEDS_PER_SCOPE;
import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.HTTP_REFUSED_BODY_BYTES;
import static dev.feedstore.server.settings.ServerSettings.KEEPALIVE_MS;
import static dev.feedstore.server.settings.ServerSettings.KEEPALIVE_TIMEOUT_MS;
import static dev.feedstore.server.settings.ServerSettings.MAX_MESSAGE_BYTES;
import static dev.feedstore.server.settings.ServerSettings.QUERY_LIMIT;
import static dev.feedstore.server.settings.ServerSettings.REJECTIONS_LOGGED_PER_MINUTE;
import static dev.feedstore.server.settings.ServerSettings.RPC_THREADS;
import static dev.feedstore.server.settings.ServerSettings.SHARED_PAGES;
import static dev.feedstore.server.settings.ServerSettings.SHARED_PAGES_BYTES;
import static dev.feedstore.server.settings.ServerSettings.SPACES_PER_SERVER;
import static dev.feedstore.server.settings.ServerSettings.STREAMS_SPACE;
import static dev.feedstore.server.settings.ServerSettings.SUBSCRIPTION_MAX_TTL_MS;
import static dev.feedstore.server.settings.ServerSettings.SUBSCRIPTION_TTL_MS;
import static dev.feedstore.server.settings.ServerSettings.TAIL_BYTES;
import static dev.feedstore.server.settings.ServerSettings.WATCHES_PER_SERVER;
import static dev.feedstore.server.settings.ServerSettings.WATCH_BATCH_BLOCKS;
import static dev.feedstore.server.settings.ServerSettings.WATCH_THREADS;
import static dev.feedstore.server.settings.ServerSettings.WRITE_PROBE_MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.InvalidValueException;
import org.junit.jupiter.api.Test;

class ServerSettingsTest {
  @Test
  void defaultsAreThoseOfTheDesign() {
    ServerSettings s = ServerSettings.DEFAULTS;

    assertEquals(1 << 20, s.get(BLOCK_BYTES));
    assertEquals(1000, s.get(BLOCKS_PER_APPEND));
    assertEquals(1000, s.get(QUERY_LIMIT));
    assertEquals(1000, s.get(FEEDS_PER_SCOPE));
    assertEquals(16 << 20, s.get(MAX_MESSAGE_BYTES));
    assertEquals(3_600_000, s.get(SUBSCRIPTION_TTL_MS));
    assertEquals(86_400_000, s.get(SUBSCRIPTION_MAX_TTL_MS));
    assertEquals(15_000, s.get(HEARTBEAT_MS));
    assertEquals(100_000, s.get(SPACES_PER_SERVER));
    assertEquals(60_000, s.get(KEEPALIVE_MS));
    assertEquals(20_000, s.get(KEEPALIVE_TIMEOUT_MS));
  }

  @Test
  void aValueThatCannotWorkIsRefusedNamingItsKey() {
    InvalidValueException zero = assertThrows(InvalidValueException.class,
        () -> ServerSettings.newBuilder().set(WATCHES_PER_SERVER, 0).build());
    InvalidValueException ttl = assertThrows(InvalidValueException.class,
        () -> ServerSettings.newBuilder().set(SUBSCRIPTION_TTL_MS, 10).set(SUBSCRIPTION_MAX_TTL_MS, 5).build());
    InvalidValueException message = assertThrows(InvalidValueException.class,
        () -> ServerSettings.newBuilder().set(BLOCK_BYTES, 100).set(MAX_MESSAGE_BYTES, 100).build());
    InvalidValueException batch = assertThrows(InvalidValueException.class,
        () -> ServerSettings.newBuilder().set(QUERY_LIMIT, 10).set(WATCH_BATCH_BLOCKS, 11).build());
    InvalidValueException scope = assertThrows(InvalidValueException.class,
        () -> ServerSettings.newBuilder().set(FEEDS_PER_SCOPE, 5001).build());
    InvalidValueException keepalive = assertThrows(InvalidValueException.class,
        () -> ServerSettings.newBuilder().set(KEEPALIVE_MS, 9_999).build());
    InvalidValueException probe = assertThrows(InvalidValueException.class,
        () -> ServerSettings.newBuilder().set(WRITE_PROBE_MS, 0).build());
    InvalidValueException refusedBody = assertThrows(InvalidValueException.class,
        () -> ServerSettings.newBuilder().set(HTTP_REFUSED_BODY_BYTES, -1).build());
    InvalidValueException sharedPages = assertThrows(InvalidValueException.class,
        () -> ServerSettings.newBuilder().set(SHARED_PAGES, 65_537).build());
    InvalidValueException sharedPagesBytes = assertThrows(InvalidValueException.class,
        () -> ServerSettings.newBuilder().set(SHARED_PAGES_BYTES, -1).build());
    InvalidValueException space = assertThrows(InvalidValueException.class,
        () -> ServerSettings.newBuilder().set(STREAMS_SPACE, "two words").build());
    InvalidValueException missing = assertThrows(InvalidValueException.class,
        () -> ServerSettings.newBuilder().set(STREAMS_SPACE, null).build());

    assertEquals("watches-per-server must be > 0, was 0", zero.getMessage());
    assertEquals("subscription-ttl-ms must be <= subscription-max-ttl-ms (5), was 10", ttl.getMessage());
    assertEquals("max-message-bytes must be above block-bytes (100) so that a block of the largest size fits, was 100",
        message.getMessage());
    assertEquals("watch-batch-blocks must be <= query-limit (10), was 11", batch.getMessage());
    assertEquals("feeds-per-scope must be <= 5000 (a larger scope does not fit in one statement of the store),"
        + " was 5001", scope.getMessage());
    assertEquals("keepalive-ms must be >= 10000 (gRPC raises shorter keepalive times to 10 s), was 9999",
        keepalive.getMessage());
    assertEquals("write-probe-ms must be > 0, was 0", probe.getMessage());
    assertEquals("http-refused-body-bytes must be >= 0 (0 reads none of a refused body), was -1",
        refusedBody.getMessage());
    assertEquals("shared-pages must be <= 65536, was 65537", sharedPages.getMessage());
    assertEquals("shared-pages-bytes must be >= 0 (0 keeps no page: every stream behind reads its own), was -1",
        sharedPagesBytes.getMessage());
    assertTrue(space.getMessage().startsWith("streams-space must be "), space.getMessage());
    assertTrue(space.getMessage().endsWith(", was 'two words'"), space.getMessage());
    assertEquals("streams-space must be given, was null", missing.getMessage());
  }

  @Test
  void everySettingIsDefinedOnceWithItsDocAndItsDefaultWithinItsRule() {
    java.util.Set<String> names = new java.util.HashSet<>();
    for (Setting<?> setting : ServerSettings.ALL) {
      assertTrue(names.add(setting.name()), "defined twice: " + setting);
      assertTrue(setting.name().matches("[a-z][a-z0-9-]*"), setting.name());
      assertTrue(setting.summary().endsWith("."), setting + "'s summary is one sentence: " + setting.summary());
      assertTrue(setting.details().isEmpty() || setting.details().endsWith("."), setting + ": " + setting.details());
      assertEquals(setting.defaultValue(), ServerSettings.DEFAULTS.get(setting));
    }
    assertEquals(ServerSettings.ALL.size(), names.size());
  }

  @Test
  void aLongSettingTakesAnIntAndTheSettingsSayWhatDiffersFromTheDefaults() {
    ServerSettings settings = ServerSettings.newBuilder().set(HEARTBEAT_MS, 500).set(SHARED_PAGES, 3).build();

    assertEquals(500L, settings.get(HEARTBEAT_MS));
    assertEquals("ServerSettings[heartbeat-ms=500, shared-pages=3]", settings.toString());
    assertEquals("ServerSettings[]", ServerSettings.DEFAULTS.toString());
    assertEquals(ServerSettings.newBuilder().set(HEARTBEAT_MS, 500L).set(SHARED_PAGES, 3).build(), settings);
  }

  @Test
  void toBuilderKeepsEverySetting() {
    ServerSettings custom = ServerSettings.newBuilder().set(BLOCK_BYTES, 7).set(MAX_MESSAGE_BYTES, 100)
        .set(QUERY_LIMIT, 9).set(WATCH_BATCH_BLOCKS, 9).set(FEEDS_PER_SCOPE, 4).set(TAIL_BYTES, 3).set(RPC_THREADS, 2)
        .set(WATCH_THREADS, 3).set(REJECTIONS_LOGGED_PER_MINUTE, 0).set(SPACES_PER_SERVER, 5).set(KEEPALIVE_MS, 12_000)
        .set(KEEPALIVE_TIMEOUT_MS, 500).set(WRITE_PROBE_MS, 700).set(HTTP_REFUSED_BODY_BYTES, 0).set(SHARED_PAGES, 3)
        .set(SHARED_PAGES_BYTES, 5).set(STREAMS_SPACE, "durable").build();

    assertEquals(custom, custom.toBuilder().build());
    assertEquals(custom.hashCode(), custom.toBuilder().build().hashCode());
  }
}
