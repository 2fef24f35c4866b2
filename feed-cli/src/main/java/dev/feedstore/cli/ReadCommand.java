package dev.feedstore.cli;

import dev.feedstore.core.SpaceId;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code feedctl read}: the blocks of a space, a namespace or feeds after a cursor, in position order, with Query pages. */
@Command(name = "read", sortOptions = false, usageHelpWidth = 100,
    description = {"Prints the blocks of a space (or of some feeds, or of a namespace) in position order,"
        + " which is feed order for each feed, then exits.",
        "Example: feedctl read --space demo --feed 01HQ3Z5V7W8X9Y0Z1A2B3C4D5E"})
final class ReadCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--space", required = true, paramLabel = "SPACE", description = "The space.")
  SpaceId space;

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  ScopeOptions scope;

  @Option(names = {"--from", "--after"}, paramLabel = "POSITION",
      description = "Cursor: print blocks after this position (default: 0, from the start).")
  Long from;

  @Option(names = "--since", paramLabel = "TIME", converter = StartTime.class,
      description = "Print the blocks the server received at or after TIME (ISO-8601 with a zone, e.g."
          + " 2026-12-02T09:30:00Z, or Unix milliseconds), on the server's clock. Not with --from.")
  Instant since;

  @Option(names = "--limit", paramLabel = "N", description = "Print at most N blocks (default: all).")
  Long limit;

  @Option(names = "--page-size", paramLabel = "N", defaultValue = "0",
      description = "Blocks asked for per request, up to the server's --query-limit (default: the server's, 100).")
  int pageSize;

  @Mixin ServerOptions server;
  @Mixin OutputOptions output;

  @Override
  public Integer call() {
    if (from != null) {
      Checks.atLeast("--from", from, 0);
    }
    StartCursor.checkOne(since, from);
    Checks.atLeast("--page-size", pageSize, 0);
    if (limit != null) {
      Checks.atLeast("--limit", limit, 0);
    }
    Printer printer = output.printer(spec.commandLine().getOut(), spec.commandLine().getErr());
    long printed = 0;
    long start = from != null ? from : 0;
    long cursor = start;
    long maxPosition = 0;
    try (AuthorityConnection authority = server.connect()) {
      if (since != null) {
        start = StartCursor.of(authority, space, since, server.server);
        cursor = start;
      }
      while (limit == null || printed < limit) {
        QueryRequest.Builder request = QueryRequest.newBuilder().setSpaceId(space.value()).setCursor(cursor)
            .setLimit(pageSize).addAllFeedIds(ScopeOptions.feedIds(scope));
        ScopeOptions.namespace(scope).ifPresent(request::setNamespace);
        QueryResponse page = authority.query(request);
        maxPosition = page.getMaxPosition();
        for (Block block : page.getBlocksList()) {
          if (limit != null && printed == limit) {
            break;
          }
          printer.block(space.value(), block, Optional.ofNullable(page.getFeedNamespacesMap().get(block.getFeedId())));
          printed++;
          cursor = block.getPosition();
        }
        if (!page.getHasMore() || page.getBlocksCount() == 0) {
          break;
        }
      }
    }
    printer.remark(printed + " block(s) after position " + start + "; the space's highest position is " + maxPosition);
    return FeedCtl.Exit.OK;
  }
}
