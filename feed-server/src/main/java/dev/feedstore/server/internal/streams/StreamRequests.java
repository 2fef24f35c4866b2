package dev.feedstore.server.internal.streams;

import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.StreamName;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * The Durable Streams request headers, checked: a refusal ({@link StreamException}, 400) names the
 * header, the value and the rule, before anything is read or written. Stateless.
 */
final class StreamRequests {
  private static final Pattern TTL = Pattern.compile("0|[1-9][0-9]{0,17}");
  private static final Pattern COUNT = Pattern.compile("0|[1-9][0-9]{0,15}");

  private StreamRequests() {}

  /** A PUT: {@code Stream-TTL} or {@code Stream-Expires-At}, and the fork headers. */
  static StreamCreate create(org.eclipse.jetty.http.HttpFields headers, Optional<StreamContent> content,
      boolean close, byte[] body) {
    String ttlText = headers.get("Stream-TTL");
    String expiresText = headers.get("Stream-Expires-At");
    if (ttlText != null && expiresText != null) {
      throw StreamException.badRequest("give Stream-TTL or Stream-Expires-At, not both");
    }
    OptionalLong ttl = OptionalLong.empty();
    if (ttlText != null) {
      if (!TTL.matcher(ttlText).matches()) {
        throw StreamException.badRequest("Stream-TTL " + RateLimitedLog.clip(ttlText) + " must be a whole number of"
            + " seconds without sign, leading zeros or exponent");
      }
      ttl = OptionalLong.of(Long.parseLong(ttlText));
    }
    OptionalLong expires = OptionalLong.empty();
    if (expiresText != null) {
      try {
        expires = OptionalLong.of(OffsetDateTime.parse(expiresText.strip()).toInstant().toEpochMilli());
      } catch (DateTimeParseException e) {
        throw StreamException.badRequest("Stream-Expires-At " + RateLimitedLog.clip(expiresText) + " must be an"
            + " RFC 3339 time, such as 2030-01-01T00:00:00Z");
      }
    }
    String forkFrom = headers.get("Stream-Forked-From");
    String forkOffset = headers.get("Stream-Fork-Offset");
    String subOffset = headers.get("Stream-Fork-Sub-Offset");
    Optional<StreamName> source = Optional.empty();
    if (forkFrom != null) {
      String path = forkFrom.strip();
      int scheme = path.indexOf("://");
      if (scheme >= 0) {
        int slash = path.indexOf('/', scheme + 3);
        path = slash < 0 ? "/" : path.substring(slash);
      }
      if (!path.startsWith(StreamsProtocol.PREFIX)) {
        throw StreamException.badRequest("Stream-Forked-From " + RateLimitedLog.clip(forkFrom) + " must name a stream"
            + " of this server, " + StreamsProtocol.PREFIX + "{name}");
      }
      try {
        source = Optional.of(StreamName.of(path.substring(StreamsProtocol.PREFIX.length())));
      } catch (InvalidValueException e) {
        throw StreamException.badRequest("Stream-Forked-From " + e.getMessage());
      }
    } else if (forkOffset != null || subOffset != null) {
      throw StreamException.badRequest("Stream-Fork-Offset and Stream-Fork-Sub-Offset need Stream-Forked-From");
    }
    long sub = 0;
    if (subOffset != null) {
      if (!COUNT.matcher(subOffset).matches()) {
        throw StreamException.badRequest("Stream-Fork-Sub-Offset " + RateLimitedLog.clip(subOffset) + " must be a"
            + " whole number >= 0 without sign or leading zeros");
      }
      sub = Long.parseLong(subOffset);
      if (sub > 0 && forkOffset == null) {
        throw StreamException.badRequest("Stream-Fork-Sub-Offset needs Stream-Fork-Offset");
      }
    }
    Optional<StreamOffset> offset = forkOffset == null ? Optional.empty()
        : Optional.of(StreamOffset.parse("Stream-Fork-Offset", forkOffset.strip()));
    return new StreamCreate(content, ttl, expires, close, body, source, offset, sub);
  }

  /** The idempotent producer of a POST: all three headers, or none. */
  static Optional<StreamWrite.Producer> producer(org.eclipse.jetty.http.HttpFields headers) {
    String id = headers.get("Producer-Id");
    String epoch = headers.get("Producer-Epoch");
    String seq = headers.get("Producer-Seq");
    if (id == null && epoch == null && seq == null) {
      return Optional.empty();
    }
    if (id == null || epoch == null || seq == null) {
      throw StreamException.badRequest("Producer-Id, Producer-Epoch and Producer-Seq go together: give all three"
          + " or none");
    }
    if (id.isEmpty()) {
      throw StreamException.badRequest("Producer-Id must not be empty");
    }
    return Optional.of(new StreamWrite.Producer(id, number("Producer-Epoch", epoch), number("Producer-Seq", seq)));
  }

  private static long number(String header, String value) {
    if (!COUNT.matcher(value).matches() || Long.parseLong(value) > (1L << 53) - 1) {
      throw StreamException.badRequest(header + " " + RateLimitedLog.clip(value) + " must be a whole number"
          + " 0-9007199254740991 without sign or leading zeros");
    }
    return Long.parseLong(value);
  }
}
