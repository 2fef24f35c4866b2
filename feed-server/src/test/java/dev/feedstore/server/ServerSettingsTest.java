package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.InvalidValueException;
import org.junit.jupiter.api.Test;

class ServerSettingsTest {
  @Test
  void defaultsAreThoseOfTheDesign() {
    ServerSettings s = ServerSettings.DEFAULTS;

    assertEquals(1 << 20, s.blockBytes());
    assertEquals(1000, s.blocksPerAppend());
    assertEquals(1000, s.queryLimit());
    assertEquals(1000, s.feedsPerScope());
    assertEquals(16 << 20, s.maxMessageBytes());
    assertEquals(3_600_000, s.subscriptionTtlMillis());
    assertEquals(86_400_000, s.subscriptionMaxTtlMillis());
    assertEquals(15_000, s.heartbeatMillis());
    assertEquals(100_000, s.spacesPerServer());
    assertEquals(60_000, s.keepaliveMillis());
    assertEquals(20_000, s.keepaliveTimeoutMillis());
  }

  @Test
  void aValueThatCannotWorkIsRefusedNamingItsKey() {
    InvalidValueException zero = assertThrows(InvalidValueException.class,
        () -> ServerSettings.newBuilder().watchesPerServer(0).build());
    InvalidValueException ttl = assertThrows(InvalidValueException.class,
        () -> ServerSettings.newBuilder().subscriptionTtlMillis(10).subscriptionMaxTtlMillis(5).build());
    InvalidValueException message = assertThrows(InvalidValueException.class,
        () -> ServerSettings.newBuilder().blockBytes(100).maxMessageBytes(100).build());
    InvalidValueException batch = assertThrows(InvalidValueException.class,
        () -> ServerSettings.newBuilder().queryLimit(10).watchBatchBlocks(11).build());
    InvalidValueException scope = assertThrows(InvalidValueException.class,
        () -> ServerSettings.newBuilder().feedsPerScope(5001).build());
    InvalidValueException keepalive = assertThrows(InvalidValueException.class,
        () -> ServerSettings.newBuilder().keepaliveMillis(9_999).build());
    InvalidValueException probe = assertThrows(InvalidValueException.class,
        () -> ServerSettings.newBuilder().writeProbeMillis(0).build());
    InvalidValueException refusedBody = assertThrows(InvalidValueException.class,
        () -> ServerSettings.newBuilder().httpRefusedBodyBytes(-1).build());
    InvalidValueException sharedPages = assertThrows(InvalidValueException.class,
        () -> ServerSettings.newBuilder().sharedPages(0).build());
    InvalidValueException sharedPagesBytes = assertThrows(InvalidValueException.class,
        () -> ServerSettings.newBuilder().sharedPagesBytes(-1).build());

    assertEquals("watches-per-server must be > 0, was 0", zero.getMessage());
    assertTrue(ttl.getMessage().startsWith("subscription-ttl-ms must be <= subscription-max-ttl-ms"), ttl.getMessage());
    assertTrue(message.getMessage().startsWith("max-message-bytes must be above block-bytes"), message.getMessage());
    assertTrue(batch.getMessage().startsWith("watch-batch-blocks must be <= query-limit"), batch.getMessage());
    assertEquals("feeds-per-scope must be <= 5000 (a larger scope does not fit in one statement of the store),"
        + " was 5001", scope.getMessage());
    assertEquals("keepalive-ms must be >= 10000 (gRPC raises shorter keepalive times to 10 s), was 9999",
        keepalive.getMessage());
    assertEquals("write-probe-ms must be > 0, was 0", probe.getMessage());
    assertEquals("http-refused-body-bytes must be >= 0 (0 reads none of a refused body), was -1",
        refusedBody.getMessage());
    assertEquals("shared-pages must be 1 to 65536, was 0", sharedPages.getMessage());
    assertEquals("shared-pages-bytes must be >= 0 (0 keeps no page: every stream behind reads its own), was -1",
        sharedPagesBytes.getMessage());
  }

  @Test
  void toBuilderKeepsEverySetting() {
    ServerSettings custom = ServerSettings.newBuilder().blockBytes(7).maxMessageBytes(100).queryLimit(9)
        .watchBatchBlocks(9).feedsPerScope(4).tailBytes(3).rpcThreads(2).watchThreads(3).rejectionsLoggedPerMinute(0)
        .spacesPerServer(5)
        .keepaliveMillis(12_000).keepaliveTimeoutMillis(500).writeProbeMillis(700).httpRefusedBodyBytes(0).sharedPages(3)
        .sharedPagesBytes(5).build();

    assertEquals(custom, custom.toBuilder().build());
  }
}
