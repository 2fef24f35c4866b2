package dev.feedstore.store;

import dev.feedstore.core.store.StoreException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The numbered scripts a store's schema is migrated with, as both stores write them: statements
 * separated by lines that hold only {@code ;}, comments on lines of their own that start with
 * {@code --}. Stateless.
 */
public final class MigrationScripts {
  private MigrationScripts() {}

  /** The statements of {@code script}, without the pieces that hold only comments and blank lines. */
  public static List<String> statements(String script) {
    List<String> result = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : script.split("\n", -1)) {
      if (line.strip().equals(";")) {
        addIfCode(result, current.toString());
        current.setLength(0);
      } else {
        current.append(line).append('\n');
      }
    }
    addIfCode(result, current.toString());
    return result;
  }

  /**
   * The text of the script at {@code path} on the class path of {@code owner}.
   *
   * @throws StoreException if it is missing or cannot be read
   */
  public static String load(Class<?> owner, String path) {
    try (InputStream in = owner.getResourceAsStream(path)) {
      if (in == null) {
        throw new StoreException("migration " + path + " is missing from the classpath");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new StoreException("cannot read migration " + path, e);
    }
  }

  private static void addIfCode(List<String> result, String sql) {
    if (sql.lines().map(String::strip).anyMatch(l -> !l.isEmpty() && !l.startsWith("--"))) {
      result.add(sql.strip());
    }
  }
}
