package dev.feedstore.server.internal.streams;

import dev.feedstore.core.store.ProducerMark;
import java.util.Optional;

/**
 * The rules of idempotent producers: a new producer starts at sequence 0 (in any epoch); in its
 * epoch each request takes the next sequence, an earlier one is a duplicate (answered, not
 * written), a later one a gap (409 with the expected sequence); a higher epoch starts over at 0; a
 * lower one is fenced off (403 with the current epoch). Stateless.
 */
final class StreamProducers {
  private StreamProducers() {}

  /**
   * The producer's state after {@code request}; the stored state itself when the request is a
   * duplicate.
   *
   * @throws StreamException 403 for a stale epoch, 400 for a new epoch not at sequence 0, 409 for a gap
   */
  static ProducerMark accept(Optional<ProducerMark> state, StreamWrite.Producer request) {
    if (state.isEmpty()) {
      if (request.seq() != 0) {
        throw gap(0, request.seq());
      }
      return new ProducerMark(request.id(), request.epoch(), 0);
    }
    ProducerMark current = state.get();
    if (request.epoch() < current.epoch()) {
      throw new StreamException(403, "Producer-Epoch " + request.epoch() + " is older than the producer's epoch "
          + current.epoch() + ": another instance took over; start a new epoch above it")
          .with("Producer-Epoch", Long.toString(current.epoch()));
    }
    if (request.epoch() > current.epoch()) {
      if (request.seq() != 0) {
        throw StreamException.badRequest("a new Producer-Epoch (" + request.epoch() + ") starts at Producer-Seq 0, was "
            + request.seq());
      }
      return new ProducerMark(request.id(), request.epoch(), 0);
    }
    if (request.seq() <= current.seq()) {
      return current;
    }
    if (request.seq() > current.seq() + 1) {
      throw gap(current.seq() + 1, request.seq());
    }
    return new ProducerMark(request.id(), request.epoch(), request.seq());
  }

  private static StreamException gap(long expected, long received) {
    return StreamException.conflict("Producer-Seq " + received + " skips sequences: the producer's next is " + expected)
        .with("Producer-Expected-Seq", Long.toString(expected)).with("Producer-Received-Seq", Long.toString(received));
  }
}
