package dev.feedstore.cli;

import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import dev.feedstore.proto.v1.FeedInfo;
import dev.feedstore.proto.v1.ListFeedsRequest;
import dev.feedstore.proto.v1.ListFeedsResponse;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code feedctl list}: the feeds of a space (ListFeeds). */
@Command(name = "list", sortOptions = false, usageHelpWidth = 100,
    description = {"Lists the feeds of a space that the server holds: id, namespace, blocks, last position.",
        "Example: feedctl list --space demo --namespace notes"})
final class ListCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--space", required = true, paramLabel = "SPACE", description = "The space.")
  SpaceId space;

  @Option(names = "--namespace", paramLabel = "NAMESPACE", description = "Only the feeds of this namespace.")
  Namespace namespace;

  @Mixin ServerOptions server;
  @Mixin OutputOptions output;

  @Override
  public Integer call() {
    Printer printer = output.printer(spec.commandLine().getOut(), spec.commandLine().getErr());
    long count = 0;
    long maxPosition = 0;
    try (AuthorityConnection authority = server.connect()) {
      ListFeedsRequest.Builder request = ListFeedsRequest.newBuilder().setSpaceId(space.value());
      if (namespace != null) {
        request.setNamespace(namespace.value());
      }
      ListFeedsResponse page;
      do {
        // Pages of the server's default size, each after the last feed of the one before.
        page = authority.listFeeds(request);
        for (FeedInfo feed : page.getFeedsList()) {
          printer.feed(space.value(), feed);
        }
        count += page.getFeedsCount();
        maxPosition = Math.max(maxPosition, page.getMaxPosition());
        if (page.getFeedsCount() > 0) {
          request.setAfterFeedId(page.getFeeds(page.getFeedsCount() - 1).getFeedId());
        }
      } while (page.getHasMore() && page.getFeedsCount() > 0);
    }
    printer.remark(count + " feed(s); the space's highest position is " + maxPosition);
    return FeedCtl.Exit.OK;
  }
}
