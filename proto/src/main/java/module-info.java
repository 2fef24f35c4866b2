/**
 * The wire protocol: the {@code feed.v1} messages and the FeedSync service generated from the
 * {@code .proto} files, with the headers and error details both sides read. For the library and
 * the server, and for programs of other languages' kind that speak the protocol themselves.
 */
module dev.feedstore.proto {
  requires transitive dev.feedstore.core;
  requires transitive com.google.protobuf;
  requires com.google.common;
  requires transitive io.grpc;
  requires transitive io.grpc.stub;
  requires transitive io.grpc.protobuf;
  requires transitive proto.google.common.protos;

  exports dev.feedstore.proto;
  exports dev.feedstore.proto.v1;
}
