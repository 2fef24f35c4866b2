package dev.feedstore.cli;

import dev.feedstore.core.InvalidValueException;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Turns what a command threw into one line on standard error and an exit code ({@link FeedCtl.Exit}):
 * a gRPC status prints its code and description, with the transport's reason when the status has
 * none of its own (a refused connection), and a plain-text connection that a TLS server closed says
 * so and how to connect.
 */
final class CommandFailures implements IExecutionExceptionHandler {
  /** How long finding out whether an unreachable server speaks TLS may take. */
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);

  @Override
  public int handleExecutionException(Exception e, CommandLine line, ParseResult parsed) {
    PrintWriter err = line.getErr();
    int code;
    if (e instanceof StatusRuntimeException status) {
      err.println("feedctl: " + describe(status.getStatus()));
      code = unreachable(status.getStatus().getCode()) ? FeedCtl.Exit.UNREACHABLE : FeedCtl.Exit.REFUSED;
      Optional<ServerOptions> server = serverOptions(parsed);
      if (status.getStatus().getCode() == Status.Code.UNAVAILABLE && server.isPresent() && server.get().plainText()
          && TlsProbe.speaksTls(server.get().server, PROBE_TIMEOUT)) {
        // gRPC only saw the connection closed: a TLS server cannot read a plain-text client's first bytes.
        err.println("feedctl: the server at " + server.get().server + " speaks TLS, and this connection was plain"
            + " text: add --tls (a certificate from a public authority) or --tls-ca FILE (a private CA or a"
            + " self-signed certificate)");
      } else if (status.getStatus().getCode() == Status.Code.UNAVAILABLE && status.getStatus().getCause() != null) {
        // A transport failure (refused, reset, unresolved), not the server's own "shutting down".
        err.println("feedctl: is a feed-server running at the address given by --server?");
      }
    } else if (e instanceof InvalidValueException || e instanceof CliException) {
      err.println("feedctl: " + e.getMessage());
      code = e instanceof CliException cli ? cli.exitCode() : FeedCtl.Exit.USAGE;
    } else {
      err.println("feedctl: unexpected failure: " + e);
      e.printStackTrace(err);
      code = FeedCtl.Exit.REFUSED;
    }
    err.flush();
    return code;
  }

  /** The server options of the command that ran, if it talks to a server. */
  private static Optional<ServerOptions> serverOptions(ParseResult parsed) {
    ParseResult command = parsed;
    while (command.hasSubcommand()) {
      command = command.subcommand();
    }
    CommandLine.Model.CommandSpec mixin = command.commandSpec().mixins().get("server");
    return mixin != null && mixin.userObject() instanceof ServerOptions options ? Optional.of(options) : Optional.empty();
  }

  /**
   * A bad command line: the reason and where to read more, without the whole usage text (which
   * would bury the reason). Exit code {@link FeedCtl.Exit#USAGE}.
   */
  static int usage(CommandLine.ParameterException e, String[] args) {
    CommandLine line = e.getCommandLine();
    PrintWriter err = line.getErr();
    err.println("feedctl: " + e.getMessage());
    err.println("Try '" + line.getCommandSpec().qualifiedName() + " --help' for its options.");
    err.flush();
    return FeedCtl.Exit.USAGE;
  }

  /** {@code CODE: description (cause)}, for example {@code UNAVAILABLE: io exception (Connection refused)}. */
  static String describe(Status status) {
    StringBuilder text = new StringBuilder(status.getCode().name());
    if (status.getDescription() != null) {
      text.append(": ").append(status.getDescription());
    }
    Throwable cause = status.getCause();
    if (cause != null && cause.getMessage() != null) {
      text.append(" (").append(cause.getMessage()).append(')');
    }
    return text.toString();
  }

  private static boolean unreachable(Status.Code code) {
    return code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED;
  }
}
