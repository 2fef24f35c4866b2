package dev.feedstore.cli;

import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import io.grpc.TlsChannelCredentials;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Option;

/** The options every command that talks to the server shares. */
final class ServerOptions {
  @Option(names = "--server", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:7070",
      description = "The position authority (default: ${DEFAULT-VALUE}).")
  ServerAddress server;

  @Option(names = "--tls", description = "Connect with TLS, trusting the system's certificate authorities.")
  boolean tls;

  @Option(names = "--tls-ca", paramLabel = "FILE",
      description = "Connect with TLS, trusting the certificates in this PEM file (a private CA or a self-signed server).")
  Path tlsCa;

  @Option(names = "--token", paramLabel = "TOKEN", defaultValue = "${env:FEEDCTL_TOKEN}",
      description = "Access token for a server that requires one (default: $FEEDCTL_TOKEN); sent as"
          + " 'authorization: Bearer TOKEN'.")
  String token;

  @Option(names = "--deadline-ms", paramLabel = "MS", defaultValue = "30000",
      description = "How long one request may take (default: ${DEFAULT-VALUE}); tail's stream has none.")
  long deadlineMillis;

  /** Whether the connection is plain text (neither --tls nor --tls-ca). */
  boolean plainText() {
    return !tls && tlsCa == null;
  }

  /** A connection to the server; the caller closes it. */
  AuthorityConnection connect() {
    if (deadlineMillis < 1) {
      throw new CliException("--deadline-ms must be >= 1, was " + deadlineMillis, FeedCtl.Exit.USAGE);
    }
    return AuthorityConnection.connect(server, credentials(), Duration.ofMillis(deadlineMillis),
        token == null || token.isEmpty() ? Optional.empty() : Optional.of(token));
  }

  private ChannelCredentials credentials() {
    if (tlsCa != null) {
      try {
        return TlsChannelCredentials.newBuilder().trustManager(tlsCa.toFile()).build();
      } catch (IOException | RuntimeException e) {
        throw new CliException("--tls-ca " + tlsCa + " is not a readable PEM certificate file: " + e.getMessage(),
            FeedCtl.Exit.USAGE);
      }
    }
    return tls ? TlsChannelCredentials.create() : InsecureChannelCredentials.create();
  }
}
