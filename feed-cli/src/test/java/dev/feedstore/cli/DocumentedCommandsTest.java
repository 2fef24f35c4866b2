package dev.feedstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The commands in the README and in every page of {@code docs/} are valid command lines of the programs
 * they run, and the deployment guide documents every flag of the server. (Running them is the end-to-end and
 * command tests' job; this catches documentation that drifts from the code.)
 */
class DocumentedCommandsTest {
  private static final Path README = Path.of("..", "README.md");
  private static final Path DOCS = Path.of("..", "docs");
  private static final Path GUIDE = DOCS.resolve("deployment.md");
  private static final Pattern FENCE = Pattern.compile("```[a-z]*\\n(.*?)```", Pattern.DOTALL);

  @Test
  void theDeploymentGuideNamesEveryServerFlag() throws IOException {
    String guide = Files.readString(GUIDE, StandardCharsets.UTF_8);
    List<String> missing = new ArrayList<>();
    for (OptionSpec option : new CommandLine(new dev.feedstore.server.Main()).getCommandSpec().options()) {
      if (!guide.contains("`" + option.longestName() + "`")) {
        missing.add(option.longestName());
      }
    }
    assertEquals(List.of(), missing, "flags of feed-server --help missing from docs/deployment.md");
  }

  @Test
  void everyDocumentedFeedctlCommandLineParses() throws IOException {
    List<List<String>> lines = commandLines("feedctl.jar");
    assertTrue(lines.size() >= 5, "found the feedctl lines: " + lines);
    for (List<String> args : lines) {
      CommandLine line = new CommandLine(new FeedCtl(new ByteArrayInputStream(new byte[0])));
      Converters.register(line);
      line.parseArgs(args.toArray(String[]::new));
    }
  }

  @Test
  void everyDocumentedServerCommandLineParses() throws IOException {
    List<List<String>> lines = commandLines("feed-server.jar");
    assertTrue(lines.stream().anyMatch(args -> args.contains("--host")), "the systemd unit's line: " + lines);
    for (List<String> args : lines) {
      CommandLine line = new CommandLine(new dev.feedstore.server.Main()).setCaseInsensitiveEnumValuesAllowed(true);
      line.parseArgs(args.toArray(String[]::new));
      assertFalse(args.isEmpty());
    }
  }

  /** The arguments after {@code jar} on every line of a fenced code block of the README and the docs. */
  static List<List<String>> commandLines(String jar) throws IOException {
    List<List<String>> lines = new ArrayList<>();
    for (Path doc : documents()) {
      Matcher fence = FENCE.matcher(Files.readString(doc, StandardCharsets.UTF_8));
      while (fence.find()) {
        for (String line : fence.group(1).split("\n")) {
          int at = line.indexOf(jar + " ");
          if (at >= 0) {
            lines.add(words(line.substring(at + jar.length() + 1).replaceAll("[)']+$", "")));
          }
        }
      }
    }
    return lines;
  }

  /** The README, then every Markdown page of {@code docs/} in name order. */
  private static List<Path> documents() throws IOException {
    List<Path> documents = new ArrayList<>(List.of(README));
    try (Stream<Path> pages = Files.list(DOCS)) {
      pages.filter(page -> page.toString().endsWith(".md")).sorted().forEach(documents::add);
    }
    assertTrue(documents.contains(GUIDE), "the deployment guide is among " + documents);
    return documents;
  }

  /**
   * Shell words: split at spaces, double quotes group, a command substitution ({@code $(date +%F)})
   * is one word, {@code "$feed"} becomes a feed id.
   */
  private static List<String> words(String text) {
    List<String> words = new ArrayList<>();
    String substituted = text.strip().replaceAll("\\$\\$?\\([^)]*\\)", "SUBSTITUTED");
    Matcher word = Pattern.compile("\"([^\"]*)\"|(\\S+)").matcher(substituted);
    while (word.find()) {
      String value = word.group(1) != null ? word.group(1) : word.group(2);
      if (value.equals("#")) {
        break;
      }
      words.add(value.equals("$feed") ? FeedId.generate().value() : value);
    }
    return words;
  }
}
