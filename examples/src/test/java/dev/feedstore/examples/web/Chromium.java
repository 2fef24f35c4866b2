package dev.feedstore.examples.web;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.opentest4j.TestAbortedException;

/**
 * The headless browser that the web page's test drives: Debian's {@code chromium} and {@code
 * chromium-driver}, in {@code /usr/bin} unless {@code -Dbrowsers.chromium=FILE} and {@code
 * -Dbrowsers.chromedriver=FILE} say where. Without them the test is skipped, saying loudly how to
 * install them, so that a machine with only a JDK passes the build; {@code -Dbrowsers.required=true}
 * (which {@code .ci/run} passes) makes a missing browser fail the test instead. Immutable.
 */
record Chromium(Path browser, Path driver) {
  static final String CHROMIUM = "browsers.chromium";
  static final String CHROMEDRIVER = "browsers.chromedriver";
  static final String REQUIRED = "browsers.required";

  /** The browser named by the system properties; skips or fails the calling test without it. */
  static Chromium locate() {
    Map<String, String> properties = new HashMap<>();
    for (String key : List.of(CHROMIUM, CHROMEDRIVER, REQUIRED)) {
      if (System.getProperty(key) != null) {
        properties.put(key, System.getProperty(key));
      }
    }
    try {
      return locate(properties);
    } catch (TestAbortedException e) {
      System.err.printf("%n*** %s ***%n%n", e.getMessage());
      throw e;
    }
  }

  /**
   * The browser named by {@code properties} (the keys {@link #CHROMIUM}, {@link #CHROMEDRIVER} and
   * {@link #REQUIRED}).
   *
   * @throws TestAbortedException if a file is missing or not executable and browsers are not required
   * @throws org.opentest4j.AssertionFailedError if a file is missing and {@link #REQUIRED} is {@code true}
   */
  static Chromium locate(Map<String, String> properties) {
    Path browser = Path.of(properties.getOrDefault(CHROMIUM, "/usr/bin/chromium"));
    Path driver = Path.of(properties.getOrDefault(CHROMEDRIVER, "/usr/bin/chromedriver"));
    String missing = Stream.of(browser, driver).filter(file -> !Files.isExecutable(file)).map(Path::toString)
        .collect(Collectors.joining(" and "));
    if (missing.isEmpty()) {
      return new Chromium(browser, driver);
    }
    String needs = "the web page's browser test needs " + missing + " (missing or not executable): apt-get install -y"
        + " chromium chromium-driver, or name them with -D" + CHROMIUM + "=FILE and -D" + CHROMEDRIVER + "=FILE";
    if (Boolean.parseBoolean(properties.get(REQUIRED))) {
      fail(needs + " (not skipped: -D" + REQUIRED + "=true)");
    }
    Assumptions.abort("SKIPPED " + needs + "; -D" + REQUIRED + "=true makes a missing browser fail, as in CI");
    throw new AssertionError("unreachable: abort throws");
  }
}
