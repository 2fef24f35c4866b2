package dev.feedstore.core.query.result;

import static dev.feedstore.core.testing.TestVersions.positioned;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.ParsedBlock;
import dev.feedstore.core.query.Row;
import dev.feedstore.core.testing.TestBlocks;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One block given to many queries is worked out once: the rows its results hold share the block's
 * version, its document key (for queries with one key) and, without a projection, its content, so
 * an open query holds little more than references per matching document.
 */
class SharedRowPartsTest {
  private static final FeedId FEED = TestBlocks.feedId();

  @Test
  void rowsOfOneBlockInManyResultsShareItsVersionKeyAndContent() {
    ParsedBlock block = positioned(FEED, 7, 70, "{\"id\":12,\"g\":3,\"prio\":40}");
    LiveResult low = new LiveResult(LiveQuery.parse("space:w key:/id where /g < 5"));
    LiveResult ordered = new LiveResult(LiveQuery.parse("space:w key:/id where /g >= 3 order /prio desc limit 50"));

    Row a = low.applyAppended(List.of(block)).entered().get(0);
    Row b = ordered.applyAppended(List.of(block)).entered().get(0);

    assertSame(a.version(), b.version(), "one version value for every row of the block");
    assertSame(a.id(), b.id(), "one document key for the queries that key documents by /id");
    assertSame(a.content().orElseThrow(), b.content().orElseThrow(), "the content read once");
    assertSame(a.content(), b.content(), "and wrapped once");
  }

  @Test
  void aDifferentKeyReadsTheBlockAgainAndAProjectionMakesItsOwnContent() {
    ParsedBlock block = positioned(FEED, 7, 70, "{\"id\":12,\"g\":3,\"ref\":\"x\"}");
    Row byId = new LiveResult(LiveQuery.parse("space:w key:/id")).applyAppended(List.of(block)).entered().get(0);
    Row byRef = new LiveResult(LiveQuery.parse("space:w key:/ref")).applyAppended(List.of(block)).entered().get(0);
    Row byIdAgain = new LiveResult(LiveQuery.parse("space:w key:/id select /g")).applyAppended(List.of(block))
        .entered().get(0);

    assertEquals("12", byId.id().toString());
    assertEquals("\"x\"", byRef.id().toString());
    assertEquals(byId.id(), byIdAgain.id());
    assertSame(byId.version(), byRef.version());
    assertNotSame(byId.content(), byIdAgain.content(), "a projection is an object of its own");
    assertEquals("{\"/g\":3}", byIdAgain.content().orElseThrow().toString());
  }
}
