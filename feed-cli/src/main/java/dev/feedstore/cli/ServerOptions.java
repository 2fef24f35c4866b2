package dev.feedstore.cli;

import java.time.Duration;
import picocli.CommandLine.Option;

/** The options every command that talks to the server shares. */
final class ServerOptions {
  @Option(names = "--server", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:7070",
      description = "The position authority (default: ${DEFAULT-VALUE}).")
  ServerAddress server;

  @Option(names = "--deadline-ms", paramLabel = "MS", defaultValue = "30000",
      description = "How long one request may take (default: ${DEFAULT-VALUE}); tail's stream has none.")
  long deadlineMillis;

  /** A connection to the server; the caller closes it. */
  Authority connect() {
    if (deadlineMillis < 1) {
      throw new CliException("--deadline-ms must be >= 1, was " + deadlineMillis, FeedCtl.Exit.USAGE);
    }
    return Authority.connect(server, Duration.ofMillis(deadlineMillis));
  }
}
