/**
 * The replica library. {@code dev.feedstore.client} is its API and shows no gRPC or SQLite type;
 * {@code dev.feedstore.client.grpc} is for programs that bring their own gRPC channels. Its
 * internals are exported to no one.
 */
module dev.feedstore.client {
  requires transitive dev.feedstore.core;
  requires dev.feedstore.sqlite;
  requires dev.feedstore.proto;
  requires io.grpc;
  requires org.slf4j;

  exports dev.feedstore.client;
  exports dev.feedstore.client.grpc;
}
