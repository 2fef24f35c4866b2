package dev.feedstore.store.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Compares a store's rendered statements with the snapshot of them kept beside its tests, one
 * {@code name: sql} line each, so that a change of what the store runs (a statement rendered anew,
 * a plan-relevant change of its text) shows in review as a change of that file. A mismatch prints the
 * whole snapshot as it is now, to copy into the file once the change is meant. Stateless.
 */
public final class StatementSnapshot {
  private StatementSnapshot() {}

  /**
   * Asserts that {@code statements} are those of the snapshot at {@code resource} (on the class
   * path of {@code owner}), in the same order.
   */
  public static void assertMatches(Class<?> owner, String resource, Map<String, String> statements)
      throws IOException {
    String actual = statements.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue())
        .collect(Collectors.joining("\n", "", "\n"));
    String expected;
    try (InputStream in = owner.getResourceAsStream(resource)) {
      expected = in == null ? "(no snapshot at " + resource + ")" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertEquals(expected, actual, "the rendered statements differ from the snapshot " + resource
        + "; if the change is meant, the snapshot is now:\n" + actual);
  }
}
