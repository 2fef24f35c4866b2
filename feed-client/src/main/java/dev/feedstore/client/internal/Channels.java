package dev.feedstore.client.internal;

import dev.feedstore.client.ConnectOptions;
import io.grpc.ChannelCredentials;
import io.grpc.CompositeChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.TlsChannelCredentials;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/** Builds the channel of {@link dev.feedstore.client.Replica#connect(String, ConnectOptions)}. Stateless. */
public final class Channels {
  private Channels() {}

  /**
   * A channel to {@code target} as {@code options} say: TLS or plain text, the token as call
   * credentials, keepalive pings while calls are open. The caller owns it.
   *
   * @throws IllegalArgumentException if the trusted certificates cannot be read, or no transport
   *     takes the target
   */
  public static ManagedChannel build(String target, ConnectOptions options) {
    try {
      return builder(target, options).build();
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("cannot make a channel to '" + target + "' (" + options + "): " + e.getMessage(), e);
    }
  }

  /**
   * A channel to every one of {@code targets} ({@code host:port} each), as {@link #build(String,
   * ConnectOptions)} builds one to a single target: calls go to one of them, picked at random per
   * channel so that replicas spread over the servers, and to another when that one fails.
   *
   * @throws IllegalArgumentException if a target is not {@code host:port}, or as {@link #build(String, ConnectOptions)}
   */
  public static ManagedChannel build(java.util.List<String> targets, ConnectOptions options) {
    if (targets.size() == 1) {
      return build(targets.get(0), options);
    }
    return builder(TargetList.target(targets), options)
        .defaultServiceConfig(java.util.Map.of("loadBalancingConfig",
            java.util.List.of(java.util.Map.of("pick_first", java.util.Map.of("shuffleAddressList", true)))))
        .build();
  }

  private static io.grpc.ManagedChannelBuilder<?> builder(String target, ConnectOptions options) {
    ChannelCredentials transport = options.tls() ? tls(options) : InsecureChannelCredentials.create();
    ChannelCredentials credentials = options.token().isPresent()
        ? CompositeChannelCredentials.create(transport, new BearerCredentials(options.token().get()))
        : transport;
    return Grpc.newChannelBuilder(target, credentials)
        .keepAliveTime(options.keepalive().toMillis(), TimeUnit.MILLISECONDS)
        .keepAliveTimeout(options.keepaliveTimeout().toMillis(), TimeUnit.MILLISECONDS)
        .maxInboundMessageSize(GrpcAuthority.FALLBACK_INBOUND_BYTES);
  }

  private static ChannelCredentials tls(ConnectOptions options) {
    if (options.trustedCertificates().isEmpty()) {
      return TlsChannelCredentials.create();
    }
    try {
      return TlsChannelCredentials.newBuilder().trustManager(options.trustedCertificates().get().toFile()).build();
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("cannot read the trusted certificates " + options.trustedCertificates().get()
          + " (PEM): " + e.getMessage(), e);
    }
  }
}
