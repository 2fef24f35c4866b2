package dev.feedstore.cli;

import dev.feedstore.core.SpaceId;
import dev.feedstore.proto.v1.DurableSubscription;
import dev.feedstore.proto.v1.ListSubscriptionsRequest;
import dev.feedstore.proto.v1.ListSubscriptionsResponse;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code feedctl subscriptions SPACE}: the durable subscriptions of a space with their lag (ListSubscriptions). */
@Command(name = "subscriptions", sortOptions = false, usageHelpWidth = 100,
    description = {"Lists the durable subscriptions of a space: id, name, acknowledged position, lag (blocks of the"
        + " space after it), deadline, and whether it expired. Needs read access to the space.",
        "Example: feedctl subscriptions demo"})
final class SubscriptionsCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "SPACE", description = "The space.")
  SpaceId space;

  @Mixin ServerOptions server;
  @Mixin OutputOptions output;

  @Override
  public Integer call() {
    Printer printer = output.printer(spec.commandLine().getOut(), spec.commandLine().getErr());
    ListSubscriptionsResponse list;
    try (AuthorityConnection authority = server.connect()) {
      list = authority.listSubscriptions(ListSubscriptionsRequest.newBuilder().setSpaceId(space.value()));
    }
    for (DurableSubscription subscription : list.getSubscriptionsList()) {
      printer.subscription(space.value(), subscription);
    }
    printer.remark(list.getSubscriptionsCount() + " durable subscription(s); the space's highest position is "
        + list.getMaxPosition());
    return FeedCtl.Exit.OK;
  }
}
