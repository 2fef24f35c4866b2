package dev.feedstore.cli;

import com.google.protobuf.ByteString;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code feedctl create}: a new feed. The authority holds a feed from its first block on (its first
 * Append creates it, with the namespace of that request), so {@code create} makes a new ULID and
 * appends the first block, TEXT or an empty one, with the namespace; then the feed exists on the
 * server, shows in {@code list}, and its id is printed for later appends.
 */
@Command(name = "create", sortOptions = false, usageHelpWidth = 100,
    description = {"Creates a feed: makes a new feed id (a ULID) and appends the feed's first block (TEXT, or an"
        + " empty block), because the server holds a feed from its first block on. Prints the new id.",
        "Example: feed=$(feedctl create --space demo --namespace notes \"first note\")"})
final class CreateCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--space", required = true, paramLabel = "SPACE", description = "The space.")
  SpaceId space;

  @Option(names = "--namespace", paramLabel = "NAMESPACE", description = "The feed's namespace (fixed from now on).")
  Namespace namespace;

  @Parameters(paramLabel = "TEXT", arity = "0..1", description = "The data of the first block (default: none).")
  String text;

  @Mixin ServerOptions server;
  @Mixin OutputOptions output;
  @Mixin AuthorOptions author;

  @Override
  public Integer call() {
    Printer printer = output.printer(spec.commandLine().getOut(), spec.commandLine().getErr());
    Optional<String> ns = Optional.ofNullable(namespace).map(Namespace::value);
    FeedId feed = FeedId.generate();
    try (AuthorityConnection authority = server.connect()) {
      StatelessAuthor writer = author.author(authority, space, Optional.ofNullable(namespace), printer);
      ByteString data = text == null ? ByteString.EMPTY : ByteString.copyFromUtf8(text);
      StatelessAuthor.Appended first = writer.append(feed.value(), List.of(data)).get(0);
      printer.created(space.value(), first.block(), ns, first.position());
    }
    return FeedCtl.Exit.OK;
  }
}
