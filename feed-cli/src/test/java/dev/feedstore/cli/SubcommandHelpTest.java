package dev.feedstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.testing.JavaProcess;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code feedctl COMMAND --help} and {@code -h} print the command's help and exit with 0 for every
 * command, also those with required options, which a newcomer tries before knowing them; and no help
 * makes picocli warn on the process's standard error (a help text it cannot format, printed raw).
 */
class SubcommandHelpTest {
  @TestFactory
  Stream<DynamicTest> everyCommandPrintsItsHelpOnDashDashHelpAndDashH() {
    List<String> commands = Cli.commands();
    assertTrue(commands.containsAll(List.of("create", "append", "read", "list", "tail", "backup")), commands.toString());
    return commands.stream().flatMap(command -> Stream.of("--help", "-h").map(flag ->
        DynamicTest.dynamicTest("feedctl " + command + " " + flag, () -> {
          Cli.Result result = Cli.run(command, flag);

          assertEquals(FeedCtl.Exit.OK, result.exit(), result.toString());
          assertTrue(result.out().startsWith("Usage: feedctl " + command + " "), result.toString());
          assertTrue(result.out().contains("-h, --help"), "the help names itself:\n" + result.out());
          assertEquals("", result.err());
        })));
  }

  @Test
  void noHelpMakesPicocliWarnOnStandardError() throws Exception {
    List<String> command = new ArrayList<>(List.of(JavaProcess.launcher(), "-cp", JavaProcess.testClassPath(),
        EveryHelp.class.getName()));
    command.addAll(Cli.commands());
    command.add("help");
    Process process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the helps were printed");
    assertEquals(0, process.exitValue(), err);

    List<String> warned = new ArrayList<>();
    String current = "";
    for (String line : err.split("\n")) {
      if (line.startsWith(EveryHelp.MARK)) {
        current = line.substring("=== ".length());
      } else if (!line.isBlank()) {
        warned.add(current + ": " + line);
      }
    }
    assertTrue(err.contains(EveryHelp.MARK + "backup --help"), "every help ran:\n" + err);
    assertEquals(List.of(), warned, "what the helps wrote to standard error (picocli prints a text it cannot"
        + " format raw, with a warning: a percent sign in a help text is written %%)");
  }
}
