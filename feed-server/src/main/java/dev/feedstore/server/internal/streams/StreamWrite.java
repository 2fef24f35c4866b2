package dev.feedstore.server.internal.streams;

import java.util.Objects;
import java.util.Optional;


/**
 * A checked POST to a stream: data to append, a close, or both.
 *
 * @param content the request's content type; empty for a close without data
 * @param data the data to append, as one block (for a JSON stream: the messages' array); empty for none
 * @param close whether the stream closes with this request ({@code Stream-Closed: true})
 * @param streamSeq the writer's {@code Stream-Seq}, if given
 * @param producer the idempotent producer's tuple, if given
 */
record StreamWrite(Optional<StreamContent> content, Optional<byte[]> data, boolean close, Optional<String> streamSeq,
    Optional<Producer> producer) {

  /**
   * The tuple of an idempotent producer.
   *
   * @param id the {@code Producer-Id}, not empty
   * @param epoch the {@code Producer-Epoch}
   * @param seq the {@code Producer-Seq}
   */
  record Producer(String id, long epoch, long seq) {}

  StreamWrite {
    Objects.requireNonNull(content, "content");
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(streamSeq, "streamSeq");
    Objects.requireNonNull(producer, "producer");
  }

}
