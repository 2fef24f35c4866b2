package dev.feedstore.server.internal.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.feedstore.core.store.ProducerMark;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StreamProducersTest {
  private static StreamWrite.Producer request(long epoch, long seq) {
    return new StreamWrite.Producer("p", epoch, seq);
  }

  private static Optional<ProducerMark> at(long epoch, long seq) {
    return Optional.of(new ProducerMark("p", epoch, seq));
  }

  @Test
  void aNewProducerStartsAtZeroInAnyEpoch() {
    assertEquals(new ProducerMark("p", 4, 0), StreamProducers.accept(Optional.empty(), request(4, 0)));
    StreamException gap = assertThrows(StreamException.class, () -> StreamProducers.accept(Optional.empty(), request(0, 1)));
    assertEquals(409, gap.status());
    assertEquals("0", gap.headers().get("Producer-Expected-Seq"));
  }

  @Test
  void inItsEpochTheNextSequenceIsTakenAnEarlierOneIsTheStoredStateAndALaterOneIsAGap() {
    assertEquals(new ProducerMark("p", 1, 3), StreamProducers.accept(at(1, 2), request(1, 3)));
    assertEquals(at(1, 2).get(), StreamProducers.accept(at(1, 2), request(1, 0)), "a duplicate answers the state");
    StreamException gap = assertThrows(StreamException.class, () -> StreamProducers.accept(at(1, 2), request(1, 5)));
    assertEquals("3", gap.headers().get("Producer-Expected-Seq"));
    assertEquals("5", gap.headers().get("Producer-Received-Seq"));
  }

  @Test
  void aHigherEpochStartsOverAtZeroAndALowerOneIsFenced() {
    assertEquals(new ProducerMark("p", 2, 0), StreamProducers.accept(at(1, 9), request(2, 0)));
    assertEquals(400, assertThrows(StreamException.class, () -> StreamProducers.accept(at(1, 9), request(2, 1))).status());
    StreamException fenced = assertThrows(StreamException.class, () -> StreamProducers.accept(at(2, 0), request(1, 10)));
    assertEquals(403, fenced.status());
    assertEquals("2", fenced.headers().get("Producer-Epoch"));
  }
}
