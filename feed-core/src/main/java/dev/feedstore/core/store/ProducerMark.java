package dev.feedstore.core.store;

import java.util.Objects;

/**
 * Where an idempotent producer of a stream stands: the highest sequence it had accepted in its
 * current epoch, or, for the producer that closed a stream, the tuple of that close. Immutable.
 *
 * @param producerId the producer's id as the client gave it (not empty)
 * @param epoch the producer's epoch (>= 0)
 * @param seq the sequence (>= 0)
 */
public record ProducerMark(String producerId, long epoch, long seq) {
  /**
   * The mark of {@code producerId} at {@code epoch} and {@code seq}.
   *
   * @throws NullPointerException if {@code producerId} is null
   * @throws IllegalArgumentException if {@code producerId} is empty, or {@code epoch} or {@code seq} is negative
   */
  public ProducerMark {
    Objects.requireNonNull(producerId, "producerId");
    if (producerId.isEmpty()) {
      throw new IllegalArgumentException("producerId must not be empty");
    }
    if (epoch < 0 || seq < 0) {
      throw new IllegalArgumentException("epoch and seq must be >= 0, were " + epoch + " and " + seq);
    }
  }
}
