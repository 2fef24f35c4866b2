package dev.feedstore.examples;

import dev.feedstore.examples.notes.NotesApp;
import dev.feedstore.examples.partial.PartialReplicationDemo;
import dev.feedstore.examples.sync.AppendAndSync;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The examples' launcher: {@code java -jar examples/target/examples.jar EXAMPLE [OPTIONS]}, with
 * EXAMPLE one of {@code notes}, {@code partial}, {@code append-and-sync}.
 */
@Command(name = "examples", mixinStandardHelpOptions = true,
    description = "Runnable examples of the feed store.",
    subcommands = {NotesApp.class, PartialReplicationDemo.class, AppendAndSync.class, CommandLine.HelpCommand.class})
public final class Examples implements Runnable {
  @Spec CommandSpec spec;

  public static void main(String[] args) {
    System.exit(new CommandLine(new Examples()).execute(args));
  }

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Missing an example: notes, partial or append-and-sync");
  }
}
