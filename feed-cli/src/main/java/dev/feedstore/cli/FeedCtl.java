package dev.feedstore.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code feedctl}, the command-line client of a position authority: create feeds, append, read,
 * list and tail them, and back up the server's database. {@code java -jar feed-cli/target/feedctl.jar
 * --help} lists the commands; {@code feedctl COMMAND --help} their options.
 *
 * <p>Output is for people by default and JSON lines with {@code --json} (one object per line, each
 * with a {@code type}). Errors go to standard error as {@code feedctl: CODE: description}. Exit
 * codes are the constants of {@link Exit}.
 */
@Command(name = "feedctl", mixinStandardHelpOptions = true, versionProvider = FeedCtl.Version.class,
    usageHelpWidth = 100, scope = CommandLine.ScopeType.INHERIT,
    description = "Talks to a feed store's position authority (feed-server): create feeds, append, read,"
        + " list and tail them live, back up the server's database, and compact a space's history or set its"
        + " retention.",
    subcommands = {CreateCommand.class, AppendBlocksCommand.class, ReadCommand.class, ListCommand.class,
        TailCommand.class, LiveCommand.class, SubscriptionsCommand.class, BackupCommand.class, CompactCommand.class,
        RetentionCommand.class, CommandLine.HelpCommand.class},
    footerHeading = "%nExit codes:%n",
    footer = {
        "  0  success",
        "  1  the server refused the request (its status code and description are printed), or a backup failed",
        "  2  bad usage or input: nothing was sent",
        "  3  the server could not be reached, was shutting down, or did not answer in time%n"})
public final class FeedCtl implements Runnable {
  @Spec CommandSpec spec;

  /** Where commands read data that is not given as arguments (append with no TEXT). */
  final InputStream stdin;

  FeedCtl(InputStream stdin) {
    this.stdin = stdin;
  }

  public static void main(String[] args) {
    PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
    PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
    System.exit(run(System.in, out, err, args));
  }

  /**
   * Runs one command line and returns its exit code; blocks until the command ends ({@code tail}
   * runs until it has printed {@code --count} blocks, its stream ends or the thread is interrupted).
   */
  public static int run(InputStream in, PrintWriter out, PrintWriter err, String... args) {
    CommandLine line = new CommandLine(new FeedCtl(in));
    line.setOut(out).setErr(err);
    line.setExecutionExceptionHandler(new CommandFailures());
    line.setParameterExceptionHandler(CommandFailures::usage);
    Converters.register(line);
    return line.execute(args);
  }

  /** With no command: a usage error naming every command, as registered above. */
  @Override
  public void run() {
    String commands = spec.subcommands().keySet().stream().filter(name -> !name.equals("help"))
        .collect(Collectors.joining(", "));
    throw new ParameterException(spec.commandLine(),
        "Missing a command: one of " + commands + " (feedctl help COMMAND explains one)");
  }

  /** The exit codes of {@code feedctl}. */
  public static final class Exit {
    public static final int OK = 0;
    public static final int REFUSED = 1;
    public static final int USAGE = 2;
    public static final int UNREACHABLE = 3;

    private Exit() {}
  }

  /** Tells picocli the version, from the jar's resources. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      Properties properties = new Properties();
      try (InputStream in = FeedCtl.class.getResourceAsStream("feedctl.properties")) {
        if (in != null) {
          properties.load(in);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return new String[] {"feedctl " + properties.getProperty("version", "unknown")};
    }
  }
}
