package dev.feedstore.core.store;

import static dev.feedstore.core.store.StreamCatalogContract.draft;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class StreamRecordTest {
  @Test
  void aSlidingTtlRunsFromTheLastUseAndAnExpiryCutsItShort() {
    StreamRecord sliding = draft("s", 0, OptionalLong.of(60), 1_000).withTouchedAt(5_000);
    assertEquals(OptionalLong.of(65_000), sliding.deadlineMillis());
    assertFalse(sliding.expiredAt(64_999));
    assertTrue(sliding.expiredAt(65_000));
    StreamRecord both = new StreamRecord(0, sliding.spaceId(), "b", 0, sliding.feedId(), "text/plain", 0,
        OptionalLong.of(60), OptionalLong.of(30_000), 5_000, OptionalLong.empty(), 0, 0, OptionalLong.empty(),
        java.util.Optional.empty(), java.util.Optional.empty(), StreamRecord.State.LIVE);
    assertEquals(OptionalLong.of(30_000), both.deadlineMillis());
  }

  @Test
  void aStreamWithoutTtlOrExpiryNeverExpiresAndOnlyALiveOneExpires() {
    assertEquals(OptionalLong.empty(), draft("s", 0, OptionalLong.empty(), 1).deadlineMillis());
    assertFalse(draft("s", 0, OptionalLong.empty(), 1).expiredAt(Long.MAX_VALUE));
    assertFalse(draft("d", 0, OptionalLong.of(1), 0).withState(StreamRecord.State.DELETED).expiredAt(10_000));
  }
}
