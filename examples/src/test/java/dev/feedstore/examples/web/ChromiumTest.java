package dev.feedstore.examples.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * Where the browser test finds Chromium: without it the test is skipped with a message that says
 * how to install it, unless {@code browsers.required} is set, which CI sets so that a CI machine
 * without the browser fails.
 */
class ChromiumTest {
  @TempDir Path dir;

  @Test
  void aMissingBrowserSkipsTheTestSayingHowToInstallIt() {
    Path missing = dir.resolve("no-chromium");

    TestAbortedException skipped = assertThrows(TestAbortedException.class,
        () -> Chromium.locate(Map.of(Chromium.CHROMIUM, missing.toString())));

    assertTrue(skipped.getMessage().contains(missing.toString()), skipped.getMessage());
    assertTrue(skipped.getMessage().contains("apt-get install -y chromium chromium-driver"), skipped.getMessage());
    assertTrue(skipped.getMessage().contains("-Dbrowsers.required=true"), skipped.getMessage());
  }

  @Test
  void aMissingBrowserFailsTheTestWhereBrowsersAreRequired() {
    Path missing = dir.resolve("no-chromedriver");

    AssertionFailedError failed = assertThrows(AssertionFailedError.class, () -> Chromium.locate(
        Map.of(Chromium.CHROMEDRIVER, missing.toString(), Chromium.REQUIRED, "true")));

    assertTrue(failed.getMessage().contains(missing.toString()), failed.getMessage());
    assertTrue(failed.getMessage().contains("apt-get install -y chromium chromium-driver"), failed.getMessage());
  }

  @Test
  void theBrowserAndItsDriverAreTakenFromTheProperties() throws IOException {
    Path chromium = executable("chromium");
    Path driver = executable("chromedriver");

    Chromium found = Chromium.locate(Map.of(Chromium.CHROMIUM, chromium.toString(), Chromium.CHROMEDRIVER,
        driver.toString(), Chromium.REQUIRED, "true"));

    assertEquals(chromium, found.browser());
    assertEquals(driver, found.driver());
  }

  private Path executable(String name) throws IOException {
    return Files.createFile(dir.resolve(name), PosixFilePermissions.asFileAttribute(
        Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_EXECUTE)));
  }
}
