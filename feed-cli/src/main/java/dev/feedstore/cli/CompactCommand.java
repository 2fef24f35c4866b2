package dev.feedstore.cli;

import dev.feedstore.core.SpaceId;
import dev.feedstore.proto.v1.CompactRequest;
import dev.feedstore.proto.v1.CompactResponse;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code feedctl compact SPACE UP_TO}: removes a space's history up to a position (Compact). */
@Command(name = "compact", sortOptions = false, usageHelpWidth = 100,
    description = {"Removes the blocks of a space at positions up to UP_TO and raises its floor; readers below it"
        + " are told their history was compacted. Needs an admin grant. Waits until done.",
        "Example: feedctl compact demo 1000"})
final class CompactCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "SPACE", description = "The space.")
  SpaceId space;

  @Parameters(index = "1", paramLabel = "UP_TO", description = "The highest position to remove (>= 1).")
  long upTo;

  @Mixin ServerOptions server;
  @Mixin OutputOptions output;

  @Override
  public Integer call() {
    Printer printer = output.printer(spec.commandLine().getOut(), spec.commandLine().getErr());
    try (AuthorityConnection authority = server.connect()) {
      CompactResponse done = authority.compact(CompactRequest.newBuilder().setSpaceId(space.value()).setUpTo(upTo));
      printer.remark("removed " + done.getRemoved() + " block(s); the floor of " + space + " is " + done.getFloor());
    }
    return FeedCtl.Exit.OK;
  }
}
