package dev.feedstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link of the README and of the pages of {@code docs/} leads to a file of this
 * repository, and a link to a heading of a Markdown page ({@code page.md#heading}) to a heading that
 * page has, named as GitHub names its anchors. A reader who clones the repository finds every page
 * a link names.
 */
class DocumentationLinksTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern FENCE = Pattern.compile("```.*?```", Pattern.DOTALL);
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("(?m)^#+ (.+)$");

  @Test
  void everyRelativeLinkResolvesInsideTheRepository() throws IOException {
    List<String> broken = new ArrayList<>();
    int links = 0;
    for (Path doc : documents()) {
      for (String target : links(doc)) {
        links++;
        String problem = problem(doc, target);
        if (problem != null) {
          broken.add(ROOT.relativize(doc) + ": " + target + " (" + problem + ")");
        }
      }
    }
    assertTrue(links > 50, "found the documents' links: " + links);
    assertEquals(List.of(), broken, "links that lead nowhere");
  }

  @Test
  void anchorsAreNamedAsGitHubNamesThem() {
    assertEquals("52-sync-and-recovery", anchor("5.2 Sync and recovery"));
    assertEquals("fan-out-cpu-per-delivery---only-fanout", anchor("Fan-out: CPU per delivery (`--only fanout`)"));
    assertEquals("restoring-and-what-it-means-for-clients", anchor("Restoring, and what it means for clients"));
  }

  /** Why a link of {@code doc} to {@code target} leads nowhere, or null when it leads somewhere. */
  private static String problem(Path doc, String target) throws IOException {
    if (target.matches("[a-z]+:.*")) {
      return null; // a web address
    }
    int hash = target.indexOf('#');
    String file = hash < 0 ? target : target.substring(0, hash);
    Path resolved = file.isEmpty() ? doc : doc.getParent().resolve(file).normalize();
    if (!resolved.startsWith(ROOT)) {
      return "outside the repository";
    }
    if (!Files.exists(resolved)) {
      return "no such file";
    }
    if (hash >= 0 && resolved.toString().endsWith(".md") && !anchors(resolved).contains(target.substring(hash + 1))) {
      return "no such heading";
    }
    return null;
  }

  private static List<Path> documents() throws IOException {
    List<Path> documents = new ArrayList<>(List.of(ROOT.resolve("README.md")));
    try (Stream<Path> pages = Files.list(ROOT.resolve("docs"))) {
      pages.filter(page -> page.toString().endsWith(".md")).sorted().forEach(documents::add);
    }
    return documents;
  }

  private static List<String> links(Path doc) throws IOException {
    Matcher link = LINK.matcher(prose(doc));
    List<String> targets = new ArrayList<>();
    while (link.find()) {
      targets.add(link.group(1));
    }
    return targets;
  }

  private static Set<String> anchors(Path page) throws IOException {
    Matcher heading = HEADING.matcher(prose(page));
    Set<String> anchors = new HashSet<>();
    while (heading.find()) {
      anchors.add(anchor(heading.group(1)));
    }
    return anchors;
  }

  /** GitHub's anchor of a heading: lower case, punctuation dropped, each space a hyphen. */
  static String anchor(String heading) {
    return heading.strip().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-');
  }

  /** The page without its fenced code blocks, whose lines are neither links nor headings. */
  private static String prose(Path page) throws IOException {
    return FENCE.matcher(Files.readString(page, StandardCharsets.UTF_8)).replaceAll("");
  }
}
