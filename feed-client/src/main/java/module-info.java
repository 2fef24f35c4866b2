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
  // Guava's failureaccess, which gRPC's futures need at run time: Guava is an automatic module and
  // cannot require it, and as a module of its own it would not be resolved on a user's module path.
  requires com.google.common.util.concurrent.internal;

  exports dev.feedstore.client;
  exports dev.feedstore.client.grpc;
}
