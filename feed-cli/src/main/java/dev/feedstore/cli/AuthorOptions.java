package dev.feedstore.cli;

import dev.feedstore.core.ActorId;
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

  void check() {
    Checks.atLeast("--retries", retries, 0);
    Checks.atLeast("--batch", batch, 1);
  }
}
