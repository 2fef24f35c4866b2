package dev.feedstore.cli;

import java.io.PrintWriter;
import picocli.CommandLine.Option;

/** The output option every command shares. */
final class OutputOptions {
  @Option(names = "--json", description = "Print JSON lines: one object per block or event, each with a \"type\".")
  boolean json;

  Printer printer(PrintWriter out, PrintWriter err) {
    return json ? new JsonPrinter(out, err) : new HumanPrinter(out, err);
  }
}
