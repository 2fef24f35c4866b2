/**
 * The position authority's server: {@code dev.feedstore.server} ({@code FeedServer}, which a
 * program embeds, and the command line) and {@code dev.feedstore.server.settings} (how it is
 * configured) are public; the packages by concern under {@code internal} are exported to no one.
 */
module dev.feedstore.server {
  requires transitive dev.feedstore.core;
  requires transitive dev.feedstore.sqlite;
  requires transitive dev.feedstore.postgres;
  requires transitive io.grpc;
  requires dev.feedstore.proto;
  requires io.grpc.stub;
  requires io.grpc.protobuf;
  requires io.grpc.services;
  requires com.google.protobuf;
  requires proto.google.common.protos;
  requires io.grpc.netty.shaded;
  requires micrometer.core;
  requires micrometer.registry.prometheus;
  requires org.eclipse.jetty.server;
  requires org.eclipse.jetty.http;
  requires org.eclipse.jetty.io;
  requires org.eclipse.jetty.util;
  requires org.eclipse.jetty.compression;
  requires org.eclipse.jetty.compression.gzip;
  requires org.eclipse.jetty.compression.server;
  requires com.nimbusds.jose.jwt;
  requires info.picocli;
  requires org.slf4j;
  // gRPC's transport logs through java.util.logging; the command line handles signals through sun.misc.
  requires java.logging;
  requires jdk.unsupported;

  exports dev.feedstore.server;
  exports dev.feedstore.server.settings;
  // The command line's options are read by picocli through reflection.
  opens dev.feedstore.server to info.picocli;
}
