package dev.feedstore.proto;

import dev.feedstore.proto.v1.AppendConflict;
import dev.feedstore.proto.v1.LimitExceeded;
import io.grpc.Metadata;
import io.grpc.protobuf.ProtoUtils;

/** The machine-readable parts of error statuses. */
public final class WireErrors {
  private WireErrors() {}

  /** Trailer of an {@code ALREADY_EXISTS} answer to Append: the conflicting keys. */
  public static final Metadata.Key<AppendConflict> APPEND_CONFLICT =
      ProtoUtils.keyForProto(AppendConflict.getDefaultInstance());

  /**
   * Trailer of a {@code RESOURCE_EXHAUSTED} answer over one of the server's settings: the setting,
   * its value and what the request had ({@code feed-limit-exceeded-bin}).
   */
  public static final Metadata.Key<LimitExceeded> LIMIT_EXCEEDED =
      Metadata.Key.of("feed-limit-exceeded" + Metadata.BINARY_HEADER_SUFFIX, ProtoUtils.metadataMarshaller(
          LimitExceeded.getDefaultInstance()));
}
