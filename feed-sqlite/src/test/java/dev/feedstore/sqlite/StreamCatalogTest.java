package dev.feedstore.sqlite;

import static dev.feedstore.core.store.StreamCatalogContract.draft;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.ProducerMark;
import dev.feedstore.core.store.StreamRecord;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What only a file shows: stream records outlive the store that wrote them, and a file of the
 * previous schema gains the tables (the catalog's behaviour: {@link SqliteStreamCatalogContractTest}).
 */
class StreamCatalogTest {
  private static final SpaceId SPACE = new SpaceId("streams");

  @TempDir Path dir;

  @Test
  void recordsAndProducersSurviveReopeningTheFile() {
    Path file = dir.resolve("streams.db");
    StreamRecord stored;
    try (SqliteFeedStore store = SqliteFeedStore.open(file)) {
      stored = store.write(tx -> {
        StreamRecord draft = draft("a/stream", 0, OptionalLong.of(60), 2_000);
        StreamRecord closed = draft.withId(tx.streams().insert(draft))
            .withClosed(42, Optional.of(new ProducerMark("p-1", 2, 7))).withStreamSeq("0009").withTouchedAt(3_000);
        tx.streams().update(closed);
        tx.streams().putProducer(closed.id(), new ProducerMark("p-1", 2, 7));
        return closed;
      });
    }
    try (SqliteFeedStore store = SqliteFeedStore.open(file)) {
      assertEquals(Optional.of(stored), store.read(tx -> tx.streams().find(SPACE, "a/stream")));
      assertEquals(Optional.of(new ProducerMark("p-1", 2, 7)), store.read(tx -> tx.streams().producer(stored.id(), "p-1")));
      assertEquals(OptionalLong.of(63_000), stored.deadlineMillis(), "renewed at 3 s with a 60 s TTL");
    }
  }
}
