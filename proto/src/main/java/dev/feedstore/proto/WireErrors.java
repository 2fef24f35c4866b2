package dev.feedstore.proto;

import dev.feedstore.proto.v1.AppendConflict;
import io.grpc.Metadata;
import io.grpc.protobuf.ProtoUtils;

/** The machine-readable parts of error statuses. */
public final class WireErrors {
  private WireErrors() {}

  /** Trailer of an {@code ALREADY_EXISTS} answer to Append: the conflicting keys. */
  public static final Metadata.Key<AppendConflict> APPEND_CONFLICT =
      ProtoUtils.keyForProto(AppendConflict.getDefaultInstance());
}
