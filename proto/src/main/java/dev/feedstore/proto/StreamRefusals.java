package dev.feedstore.proto;

import com.google.protobuf.ByteString;
import dev.feedstore.proto.v1.AppendRefusal;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A refused request of an {@code AppendStream} travels as an {@link AppendRefusal}: the status and
 * trailers a unary Append would have ended with, so that a client reads both the same way. Stateless
 * and thread-safe.
 */
public final class StreamRefusals {
  private StreamRefusals() {}

  /** The refusal carrying {@code failure}'s code, description and trailers (the last value of each key). */
  public static AppendRefusal toWire(StatusException failure) {
    Status status = failure.getStatus();
    AppendRefusal.Builder refusal = AppendRefusal.newBuilder().setCode(status.getCode().value());
    if (status.getDescription() != null) {
      refusal.setDescription(status.getDescription());
    }
    Metadata trailers = failure.getTrailers();
    if (trailers != null) {
      for (String name : trailers.keys()) {
        ByteString value = last(trailers, name);
        if (value != null) {
          refusal.putTrailers(name, value);
        }
      }
    }
    return refusal.build();
  }

  /** The status exception a unary Append would have thrown with {@code refusal}. */
  public static StatusRuntimeException toStatus(AppendRefusal refusal) {
    Metadata trailers = new Metadata();
    for (Map.Entry<String, ByteString> entry : refusal.getTrailersMap().entrySet()) {
      String name = entry.getKey();
      if (name.endsWith(Metadata.BINARY_HEADER_SUFFIX)) {
        trailers.put(Metadata.Key.of(name, Metadata.BINARY_BYTE_MARSHALLER), entry.getValue().toByteArray());
      } else {
        trailers.put(Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER),
            entry.getValue().toString(StandardCharsets.US_ASCII));
      }
    }
    Status status = Status.fromCodeValue(refusal.getCode());
    if (!refusal.getDescription().isEmpty()) {
      status = status.withDescription(refusal.getDescription());
    }
    return status.asRuntimeException(trailers);
  }

  private static ByteString last(Metadata trailers, String name) {
    Iterable<?> values = name.endsWith(Metadata.BINARY_HEADER_SUFFIX)
        ? trailers.getAll(Metadata.Key.of(name, Metadata.BINARY_BYTE_MARSHALLER))
        : trailers.getAll(Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER));
    Object last = null;
    if (values != null) {
      for (Object value : values) {
        last = value;
      }
    }
    if (last instanceof byte[] bytes) {
      return ByteString.copyFrom(bytes);
    }
    return last == null ? null : ByteString.copyFrom(last.toString(), StandardCharsets.US_ASCII);
  }
}
