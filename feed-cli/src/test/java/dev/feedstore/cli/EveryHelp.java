package dev.feedstore.cli;

import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * A program that prints feedctl's help and each named command's, in a process of its own, so that
 * what picocli itself writes to standard error (its warnings go to the process's {@code System.err},
 * not to a command's error writer) is seen. Before each help it writes {@link #MARK} and the command
 * line to standard error; it exits with 1 if a help did not exit with 0.
 */
final class EveryHelp {
  /** Starts the line on standard error that names the command line whose output follows. */
  static final String MARK = "=== feedctl ";

  private EveryHelp() {}

  public static void main(String[] commands) {
    PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
    PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
    int failed = 0;
    for (String line : prepend("--help", commands)) {
      String[] args = line.split(" ");
      err.println(MARK + line);
      if (FeedCtl.run(InputStream.nullInputStream(), out, err, args) != FeedCtl.Exit.OK) {
        failed++;
      }
    }
    System.exit(failed == 0 ? 0 : 1);
  }

  /** {@code first}, then {@code COMMAND --help} for each command. */
  private static String[] prepend(String first, String[] commands) {
    String[] lines = new String[commands.length + 1];
    lines[0] = first;
    for (int i = 0; i < commands.length; i++) {
      lines[i + 1] = commands[i] + " --help";
    }
    return lines;
  }
}
