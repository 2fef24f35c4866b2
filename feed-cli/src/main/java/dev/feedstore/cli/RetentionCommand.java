package dev.feedstore.cli;

import dev.feedstore.core.SpaceId;
import dev.feedstore.proto.v1.SetRetentionRequest;
import dev.feedstore.proto.v1.SetRetentionResponse;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code feedctl retention SPACE [--blocks N] [--age-ms MS] [--bytes B]}: a space's own retention. */
@Command(name = "retention", sortOptions = false, usageHelpWidth = 100,
    description = {"Sets how much history a space keeps (its own retention, in place of the server's --retain-*"
        + " settings) and applies it at once. A bound left out keeps everything by that measure;"
        + " --server-default goes back to the server's settings. Needs an admin grant.",
        "Example: feedctl retention demo --blocks 100000"})
final class RetentionCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "SPACE", description = "The space.")
  SpaceId space;

  @Option(names = "--blocks", paramLabel = "N", description = "Most blocks kept.")
  long blocks;

  @Option(names = "--age-ms", paramLabel = "MS", description = "Oldest block kept, in ms before now (by its receive time).")
  long ageMillis;

  @Option(names = "--bytes", paramLabel = "B", description = "Most bytes of block data kept.")
  long bytes;

  @Option(names = "--server-default", description = "Use the server's --retain-* settings for this space again.")
  boolean serverDefault;

  @Mixin ServerOptions server;
  @Mixin OutputOptions output;

  @Override
  public Integer call() {
    Printer printer = output.printer(spec.commandLine().getOut(), spec.commandLine().getErr());
    try (AuthorityConnection authority = server.connect()) {
      SetRetentionResponse set = authority.setRetention(SetRetentionRequest.newBuilder().setSpaceId(space.value())
          .setBlocks(blocks).setAgeMs(ageMillis).setBytes(bytes).setServerDefault(serverDefault));
      printer.remark("retention of " + space + (set.getServerDefault() ? " (the server's)" : "") + ": blocks "
          + bound(set.getBlocks()) + ", age-ms " + bound(set.getAgeMs()) + ", bytes " + bound(set.getBytes())
          + "; its floor is " + set.getFloor());
    }
    return FeedCtl.Exit.OK;
  }

  private static String bound(long value) {
    return value == 0 ? "all" : Long.toString(value);
  }
}
