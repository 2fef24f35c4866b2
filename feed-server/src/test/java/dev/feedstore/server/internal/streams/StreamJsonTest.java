package dev.feedstore.server.internal.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class StreamJsonTest {
  @Test
  void anArrayIsFlattenedOneLevelAndAnythingElseIsOneMessage() {
    assertEquals(List.of("{\"a\":1}", "{\"b\":2}"), StreamJson.messages(" [{\"a\":1}, {\"b\":2}] "));
    assertEquals(List.of("[1,2]", "[3,4]"), StreamJson.messages("[[1,2],[3,4]]"));
    assertEquals(List.of("[[1,2,3]]"), StreamJson.messages("[[[1,2,3]]]"));
    assertEquals(List.of("\"s\""), StreamJson.messages("\"s\""));
    assertEquals(List.of("-0.5e+3"), StreamJson.messages("-0.5e+3"));
    assertEquals(List.of(), StreamJson.messages("[ ]"));
  }

  @Test
  void messagesKeepTheirTextAsSent() {
    assertEquals(List.of("{ \"x\" : 1.0 }", "\"caf\\u00e9\""), StreamJson.messages("[{ \"x\" : 1.0 }, \"caf\\u00e9\"]"));
  }

  @Test
  void anythingButOneStrictJsonValueIsRefusedNamingWhere() {
    for (String bad : List.of("{ invalid json }", "[1,]", "01", "1.", "'a'", "[1] [2]", "{\"a\" 1}", "\"a\nb\"",
        "\"\\x\"", "tru", "", "NaN", "[1, 2")) {
      StreamException e = assertThrows(StreamException.class, () -> StreamJson.messages(bad), bad);
      assertEquals(400, e.status());
      assertTrue(e.getMessage().contains("at character"), e.getMessage());
    }
  }

  @Test
  void aBodyNestedAsDeepAsItsSizeAllowsCostsItsLengthNotTheStack() {
    int depth = 200_000;
    String deep = "[".repeat(depth) + "]".repeat(depth);
    assertEquals(List.of(deep.substring(1, deep.length() - 1)), StreamJson.messages(deep));
    StreamException unclosed = assertThrows(StreamException.class,
        () -> StreamJson.messages("{\"a\":" + "[".repeat(depth)));
    assertEquals(400, unclosed.status());
    assertTrue(unclosed.getMessage().contains("at character " + (5 + depth)), unclosed.getMessage());
  }

  @Test
  void aStoredBlockGivesItsElementsAndABlockThatIsNotJsonGivesNothing() {
    assertEquals(List.of("1", "2"), StreamJson.ofBlock(StreamJson.block(List.of("1", "2"))));
    assertEquals(List.of("{\"k\":1}"), StreamJson.ofBlock("{\"k\":1}"));
    assertEquals(List.of(), StreamJson.ofBlock("not json"));
  }
}
