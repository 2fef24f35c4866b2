package dev.feedstore.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** Runs {@code mount} and {@code umount} for the file-system fixtures. Stateless. */
final class Mounts {
  private Mounts() {}

  /** What a command did: whether it exited with 0, and what it printed. */
  record Result(boolean ok, String output) {}

  static Result run(String... command) {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return new Result(false, String.join(" ", command) + " did not finish");
      }
      return new Result(process.exitValue() == 0, output);
    } catch (IOException e) {
      return new Result(false, String.join(" ", command) + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Result(false, "interrupted");
    }
  }

  /** Unmounts {@code target}, lazily if something still holds it open. */
  static void unmount(String target) {
    if (!run("umount", target).ok()) {
      Result lazy = run("umount", "-l", target);
      if (!lazy.ok()) {
        throw new IllegalStateException("cannot unmount the test's mount at " + target + ": " + lazy.output());
      }
    }
  }
}
