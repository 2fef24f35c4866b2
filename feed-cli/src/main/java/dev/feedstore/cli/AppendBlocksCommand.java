package dev.feedstore.cli;

import com.google.protobuf.ByteString;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code feedctl append}: appends blocks to a feed as a stateless author ({@link StatelessAuthor}). */
@Command(name = "append", sortOptions = false, usageHelpWidth = 100,
    description = {"Appends blocks to a feed: one per TEXT argument, or the bytes of --file, or one per line"
        + " of standard input when neither is given.",
        "The sequence is one more than the feed's highest on the server, the predecessor its last block;"
            + " if another writer takes that sequence first (ALREADY_EXISTS), the feed is read again and"
            + " the append retried. A feed the server does not hold yet is created, with --namespace.",
        "Example: feedctl append --space demo --feed 01HQ3Z5V7W8X9Y0Z1A2B3C4D5E hello world"})
final class AppendBlocksCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @ParentCommand FeedCtl parent;

  @Option(names = "--space", required = true, paramLabel = "SPACE", description = "The space.")
  SpaceId space;

  @Option(names = "--feed", required = true, paramLabel = "FEED_ID", description = "The feed (a ULID).")
  FeedId feed;

  @Option(names = "--namespace", paramLabel = "NAMESPACE",
      description = "The namespace of the feed if this append creates it (ignored for an existing feed).")
  Namespace namespace;

  @Option(names = "--file", paramLabel = "FILE", description = "Append one block holding the bytes of FILE.")
  Path file;

  @Parameters(paramLabel = "TEXT", arity = "0..*", description = "The data of each block, as UTF-8 text.")
  List<String> texts = new ArrayList<>();

  @Mixin ServerOptions server;
  @Mixin OutputOptions output;
  @Mixin AuthorOptions author;

  @Override
  public Integer call() {
    List<ByteString> data = data();
    if (data.isEmpty()) {
      throw new CliException("nothing to append: give TEXT, --file, or lines on standard input", FeedCtl.Exit.USAGE);
    }
    Printer printer = output.printer(spec.commandLine().getOut(), spec.commandLine().getErr());
    try (AuthorityConnection authority = server.connect()) {
      StatelessAuthor writer = author.author(authority, space, Optional.ofNullable(namespace), printer);
      for (StatelessAuthor.Appended appended : writer.append(feed.value(), data)) {
        printer.appended(space.value(), appended.block(), appended.position());
      }
    }
    return FeedCtl.Exit.OK;
  }

  private List<ByteString> data() {
    if (file != null && !texts.isEmpty()) {
      throw new CliException("give either TEXT or --file, not both", FeedCtl.Exit.USAGE);
    }
    try {
      if (file != null) {
        return List.of(ByteString.copyFrom(Files.readAllBytes(file)));
      }
      if (!texts.isEmpty()) {
        return texts.stream().map(ByteString::copyFromUtf8).toList();
      }
      List<ByteString> lines = new ArrayList<>();
      BufferedReader in = new BufferedReader(new InputStreamReader(parent.stdin, StandardCharsets.UTF_8));
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        lines.add(ByteString.copyFromUtf8(line));
      }
      return lines;
    } catch (java.nio.file.NoSuchFileException e) {
      throw new CliException("--file " + file + " does not exist", FeedCtl.Exit.USAGE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
