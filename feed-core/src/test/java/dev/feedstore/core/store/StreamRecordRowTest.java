package dev.feedstore.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class StreamRecordRowTest {
  @Test
  void aRowReadsBackAsItsRecordWhateverWidthItsNumbersHave() {
    StreamRecord closed = StreamCatalogContract.draft("a/b", 2, OptionalLong.of(60), 1_000).withId(7)
        .withClosed(42, Optional.of(new ProducerMark("p", 1, 3))).withStreamSeq("0009");
    Object[] values = StreamRecordRow.withoutId(closed);
    Object[] row = new Object[StreamRecordRow.WIDTH];
    row[0] = 7; // an Integer, as a driver gives a small whole number
    System.arraycopy(values, 0, row, 1, values.length);
    for (int i = 0; i < row.length; i++) {
      if (row[i] instanceof Long l && l < Integer.MAX_VALUE) {
        row[i] = l.intValue();
      }
    }
    assertEquals(closed, StreamRecordRow.record(row));
  }

  @Test
  void theChangesEndWithTheId() {
    StreamRecord record = StreamCatalogContract.draft("x", 0, OptionalLong.empty(), 5).withId(11);
    Object[] changes = StreamRecordRow.changes(record);
    assertEquals(11L, changes[changes.length - 1]);
    assertEquals("live", changes[changes.length - 2]);
  }

  @Test
  void aRowOfAnotherWidthIsRefusedNamingBoth() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> StreamRecordRow.record(new Object[3]));
    assertTrue(e.getMessage().contains("19 values, not 3"), e.getMessage());
  }
}
