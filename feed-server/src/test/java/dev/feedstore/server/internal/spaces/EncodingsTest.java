package dev.feedstore.server.internal.spaces;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class EncodingsTest {
  static final Encodings.Kind<String> TEXT = new Encodings.Kind<>("text");
  static final Encodings.Kind<byte[]> BYTES = new Encodings.Kind<>("bytes");

  final Encodings encodings = new Encodings();
  final AtomicInteger made = new AtomicInteger();

  @Test
  void eachKindIsEncodedOnceForEveryStreamThatAsks() {
    String first = encodings.get(TEXT, () -> "event " + made.incrementAndGet());
    for (int stream = 0; stream < 100; stream++) {
      assertSame(first, encodings.get(TEXT, () -> "event " + made.incrementAndGet()));
    }
    assertEquals(1, made.get());
  }

  @Test
  void kindsAreKeptApartEvenWithTheSameName() {
    Encodings.Kind<String> otherText = new Encodings.Kind<>("text");
    byte[] bytes = encodings.get(BYTES, () -> new byte[] {1});
    assertEquals("mine", encodings.get(TEXT, () -> "mine"));
    assertEquals("other", encodings.get(otherText, () -> "other"));
    assertSame(bytes, encodings.get(BYTES, () -> new byte[] {2}));
    assertEquals("mine", encodings.get(TEXT, () -> "again"));
  }

  @Test
  void aStreamThatLosesTheRaceGetsTheEncodingKeptFirst() throws Exception {
    CountDownLatch slowEncoding = new CountDownLatch(1);
    CountDownLatch slowMayFinish = new CountDownLatch(1);
    CompletableFuture<String> slow = CompletableFuture.supplyAsync(() -> encodings.get(TEXT, () -> {
      slowEncoding.countDown();
      await(slowMayFinish);
      return "slow";
    }));
    assertTrue(slowEncoding.await(10, TimeUnit.SECONDS));
    encodings.get(BYTES, () -> new byte[0]); // another kind kept meanwhile: the slow one tries again
    assertEquals("fast", encodings.get(TEXT, () -> "fast"));
    slowMayFinish.countDown();
    assertEquals("fast", slow.get(10, TimeUnit.SECONDS));
    assertEquals("fast", encodings.get(TEXT, () -> "later"));
  }

  @Test
  void anEncodingIsNeverNull() {
    NullPointerException e = assertThrows(NullPointerException.class, () -> encodings.get(TEXT, () -> null));
    assertEquals("text", e.getMessage());
    assertEquals("made", encodings.get(TEXT, () -> "made"), "nothing kept by the failed encoding");
  }

  private static void await(CountDownLatch latch) {
    try {
      assertTrue(latch.await(10, TimeUnit.SECONDS));
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }
}
