package dev.feedstore.cli;

import dev.feedstore.client.Appender;
import dev.feedstore.core.ActorId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import java.time.Clock;
import java.util.Optional;
import picocli.CommandLine.Option;

/** The options of commands that write blocks. */
final class AuthorOptions {
  @Option(names = "--actor", paramLabel = "ACTOR", defaultValue = "feedctl",
      description = "The author of the blocks (default: ${DEFAULT-VALUE}).")
  ActorId actor;

  @Option(names = "--retries", paramLabel = "N", defaultValue = "5",
      description = "How often to retry when another writer took the sequence first (default: ${DEFAULT-VALUE}).")
  int retries;

  @Option(names = "--batch", paramLabel = "N", defaultValue = "100",
      description = "Blocks per Append; each batch is stored whole or not at all (default: ${DEFAULT-VALUE}).")
  int batch;

  @Option(names = "--in-flight", paramLabel = "N", defaultValue = "" + Appender.DEFAULT_MAX_CALLS_IN_FLIGHT,
      description = "Appends (batches) sent before the first is answered; 1 waits for each answer"
          + " (default: ${DEFAULT-VALUE}).")
  int inFlight;

  /**
   * The author these options describe, writing to {@code spaceId} through {@code authority}; a feed
   * it creates gets {@code namespace}.
   */
  StatelessAuthor author(AuthorityConnection authority, SpaceId spaceId, Optional<Namespace> namespace, Printer printer) {
    Checks.atLeast("--retries", retries, 0);
    Checks.atLeast("--batch", batch, 1);
    Checks.atLeast("--in-flight", inFlight, 1);
    return new StatelessAuthor(authority, spaceId.value(), actor.value(), namespace.map(Namespace::value),
        Clock.systemUTC(), batch, retries, inFlight, printer);
  }
}
