package dev.feedstore.server.internal.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class StreamOffsetTest {
  @Test
  void anOffsetIsItsPositionAndSortsAsItDoesAsText() {
    assertEquals("0000000000000042_0000000000000000", new StreamOffset(42).toString());
    assertEquals(new StreamOffset(42), StreamOffset.parse("offset", "0000000000000042_0000000000000000"));
    assertTrue(new StreamOffset(9).toString().compareTo(new StreamOffset(10).toString()) < 0);
    assertTrue(new StreamOffset(StreamOffset.MAX_POSITION).toString().compareTo(new StreamOffset(10).toString()) > 0);
  }

  @Test
  void everyPositionIsWrittenInSixteenDigitsAndReadBackAsItself() {
    assertEquals("0000000000000000_0000000000000000", new StreamOffset(0).toString());
    assertEquals("9999999999999999_0000000000000000", new StreamOffset(StreamOffset.MAX_POSITION).toString());
    long position = 0;
    for (int digits = 1; digits <= 16; digits++) {
      position = position * 10 + digits % 10;
      String text = new StreamOffset(position).toString();
      assertEquals(String.format("%016d_%016d", position, 0), text, "position " + position);
      assertEquals(new StreamOffset(position), StreamOffset.parse("offset", text));
    }
  }

  @Test
  void textsThatAreNotOffsetsOfThisServerAreRefusedNamingTheField() {
    for (String bad : List.of("", "42", "-1", "now", "0,1", "0 1", "0000000000000042_0000000000000001",
        "000000000000004x_0000000000000000", "../0000000000000042_0000000000000000")) {
      StreamException e = assertThrows(StreamException.class, () -> StreamOffset.parse("Stream-Fork-Offset", bad), bad);
      assertEquals(400, e.status());
      assertTrue(e.getMessage().startsWith("Stream-Fork-Offset "), e.getMessage());
    }
  }
}
