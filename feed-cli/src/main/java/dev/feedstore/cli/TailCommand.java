package dev.feedstore.cli;

import dev.feedstore.core.SpaceId;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.WatchRequest;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code feedctl tail}: follows a space, a namespace or feeds live with a Watch stream, printing
 * each block as its transaction commits, until interrupted, until {@code --count} blocks, or until
 * the server ends the stream (a shutdown ends it with {@code UNAVAILABLE}: exit code 3), unless
 * {@code --reconnect} says to wait for the server and resume ({@link LiveTail}).
 */
@Command(name = "tail", sortOptions = false, usageHelpWidth = 100,
    description = {"Follows a space (or some feeds, or a namespace) live: prints blocks as they commit until"
        + " interrupted (Ctrl-C). Starts from now unless --from is given (--from 0: the whole history first).",
        "Example: feedctl tail --space demo --namespace notes --json"})
final class TailCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--space", required = true, paramLabel = "SPACE", description = "The space.")
  SpaceId space;

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  ScopeOptions scope;

  @Option(names = {"--from", "--after"}, paramLabel = "POSITION",
      description = "Cursor: start after this position (0: the whole history). Default: the space's highest"
          + " position now, so only new blocks are printed.")
  Long from;

  @Option(names = "--count", paramLabel = "N", description = "Exit after printing N blocks.")
  Long count;

  @Option(names = "--reconnect", description = "When the server stops or restarts, wait for it and resume after the"
      + " last printed block (also across a restore from a backup, or a replaced store).")
  boolean reconnect;

  @Option(names = "--heartbeats", description = "With --json, also print the idle stream's heartbeats.")
  boolean heartbeats;

  @Mixin ServerOptions server;
  @Mixin OutputOptions output;

  @Override
  public Integer call() throws InterruptedException {
    if (from != null) {
      Checks.atLeast("--from", from, 0);
    }
    if (count != null) {
      Checks.atLeast("--count", count, 1);
    }
    Printer printer = output.printer(spec.commandLine().getOut(), spec.commandLine().getErr());
    try (Authority authority = server.connect()) {
      long cursor = from != null ? from : highestPosition(authority);
      printer.remark("tailing space " + space + " after position " + cursor + " on " + server.server);
      WatchRequest.Builder scopeRequest = WatchRequest.newBuilder().setSpaceId(space.value())
          .addAllFeedIds(ScopeOptions.feedIds(scope));
      ScopeOptions.namespace(scope).ifPresent(scopeRequest::setNamespace);
      new LiveTail(authority, scopeRequest.build(), printer, Optional.ofNullable(count), heartbeats, reconnect)
          .follow(cursor);
    }
    return FeedCtl.Exit.OK;
  }

  /** The space's highest position, from a one-block Query. */
  private long highestPosition(Authority authority) {
    return authority.query(QueryRequest.newBuilder().setSpaceId(space.value()).setLimit(1)).getMaxPosition();
  }
}
