package dev.feedstore.client.internal;

import dev.feedstore.client.BearerToken;
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
    ChannelCredentials transport = options.tls() ? tls(options) : InsecureChannelCredentials.create();
    ChannelCredentials credentials = options.token().isPresent()
        ? CompositeChannelCredentials.create(transport, BearerToken.from(options.token().get()))
        : transport;
    try {
      return Grpc.newChannelBuilder(target, credentials)
          .keepAliveTime(options.keepalive().toMillis(), TimeUnit.MILLISECONDS)
          .keepAliveTimeout(options.keepaliveTimeout().toMillis(), TimeUnit.MILLISECONDS)
          .maxInboundMessageSize(GrpcAuthority.FALLBACK_INBOUND_BYTES)
          .build();
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("cannot make a channel to '" + target + "' (" + options + "): " + e.getMessage(), e);
    }
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
