package dev.feedstore.server.internal.streams;

import dev.feedstore.core.StreamName;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A checked PUT of a stream.
 *
 * @param content the requested content type, if given
 * @param ttlSeconds the sliding time-to-live, if given ({@code Stream-TTL})
 * @param expiresAtMillis the absolute expiry, if given ({@code Stream-Expires-At})
 * @param close whether the stream is created closed
 * @param body the initial data, possibly empty
 * @param forkOf the stream to fork, if any ({@code Stream-Forked-From})
 * @param forkOffset where to fork it, if given (default: its tail)
 * @param forkSubOffset how much of the block after the fork offset the fork takes (bytes, or JSON
 *     messages); 0 for none
 */
record StreamCreate(Optional<StreamContent> content, OptionalLong ttlSeconds, OptionalLong expiresAtMillis,
    boolean close, byte[] body, Optional<StreamName> forkOf, Optional<StreamOffset> forkOffset, long forkSubOffset) {
  StreamCreate {
    Objects.requireNonNull(content, "content");
    Objects.requireNonNull(ttlSeconds, "ttlSeconds");
    Objects.requireNonNull(expiresAtMillis, "expiresAtMillis");
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(forkOf, "forkOf");
    Objects.requireNonNull(forkOffset, "forkOffset");
  }
}
