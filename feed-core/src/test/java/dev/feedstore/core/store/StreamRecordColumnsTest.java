package dev.feedstore.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class StreamRecordColumnsTest {
  @Test
  void aRecordIsReadFromItsColumnsNumberedFromOne() {
    StreamRecord record = StreamCatalogContract.draft("a/b", 1, OptionalLong.of(30), 2_000).withId(9)
        .withClosed(17, Optional.of(new ProducerMark("p", 2, 5)));
    Object[] values = StreamRecordRow.withoutId(record);
    List<Integer> asked = new ArrayList<>();
    StreamRecord read = StreamRecordColumns.read(column -> {
      asked.add(column);
      return column == 1 ? 9L : values[column - 2];
    });
    assertEquals(record, read);
    assertEquals(IntStream.rangeClosed(1, StreamRecordRow.WIDTH).boxed().toList(), asked, "each column once, in order");
  }

  @Test
  void whatReadingAValueThrowsIsThrownAsItIs() {
    IOException broken = new IOException("the row went away");
    IOException thrown = assertThrows(IOException.class, () -> StreamRecordColumns.read(column -> {
      throw broken;
    }));
    assertSame(broken, thrown);
  }
}
