package dev.feedstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import picocli.CommandLine;

/**
 * {@code feedctl COMMAND --help} and {@code -h} print the command's help and exit with 0 for every
 * command, also those with required options, which a newcomer tries before knowing them.
 */
class SubcommandHelpTest {
  @TestFactory
  Stream<DynamicTest> everyCommandPrintsItsHelpOnDashDashHelpAndDashH() {
    List<String> commands = new CommandLine(new FeedCtl(InputStream.nullInputStream())).getSubcommands().keySet()
        .stream().filter(name -> !name.equals("help")).toList();
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
}
