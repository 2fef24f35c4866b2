package dev.feedstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FeedIdTest {

  @Test
  void generatedIdsParseBackAndCarryTheirTime() {
    Instant now = Instant.parse("2026-11-29T12:00:00.123Z");
    FeedId id = FeedId.generate(Clock.fixed(now, ZoneOffset.UTC), new Random(1));
    assertEquals(26, id.value().length());
    assertEquals(id, FeedId.of(id.value()));
    assertEquals(now.toEpochMilli(), id.timestampMillis());
  }

  @Test
  void knownUlidDecodesToItsTimestamp() {
    // The example of the ULID specification: 01ARZ3NDEKTSV4RRFFQ69G5FAV is 2016-07-30T23:54:10.259Z.
    assertEquals(1469922850259L, FeedId.of("01ARZ3NDEKTSV4RRFFQ69G5FAV").timestampMillis());
  }

  @Test
  void lowerCaseInputIsTheSameFeed() {
    assertEquals(FeedId.of("01ARZ3NDEKTSV4RRFFQ69G5FAV"), FeedId.of("01arz3ndektsv4rrffq69g5fav"));
    assertEquals("01ARZ3NDEKTSV4RRFFQ69G5FAV", FeedId.of("01arz3ndektsv4rrffq69g5fav").value());
  }

  @Test
  @SuppressWarnings("deprecation")
  void theDeprecatedParseIsStillTheSameAsOf() {
    assertEquals(FeedId.of("01ARZ3NDEKTSV4RRFFQ69G5FAV"), FeedId.parse("01arz3ndektsv4rrffq69g5fav"));
  }

  @Test
  void idsSortByCreationTime() {
    FeedId earlier = FeedId.generate(Clock.fixed(Instant.ofEpochMilli(1_000), ZoneOffset.UTC), new Random(9));
    FeedId later = FeedId.generate(Clock.fixed(Instant.ofEpochMilli(2_000), ZoneOffset.UTC), new Random(1));
    assertTrue(earlier.compareTo(later) < 0);
  }

  @Test
  void generatedIdsAreDistinct() {
    Set<FeedId> ids = new HashSet<>();
    for (int i = 0; i < 10_000; i++) {
      ids.add(FeedId.generate());
    }
    assertEquals(10_000, ids.size());
    assertNotEquals(FeedId.generate(), FeedId.generate());
  }
}
