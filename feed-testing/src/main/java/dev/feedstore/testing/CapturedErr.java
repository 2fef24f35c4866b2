package dev.feedstore.testing;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Captures {@code System.err}, where the test logging (slf4j-simple) writes, until closed. Not
 * thread-safe; one at a time.
 */
public final class CapturedErr implements AutoCloseable {
  private final PrintStream original = System.err;
  private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

  public CapturedErr() {
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
  }

  /** What was written so far. */
  public String text() {
    return captured.toString(StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    System.setErr(original);
  }
}
