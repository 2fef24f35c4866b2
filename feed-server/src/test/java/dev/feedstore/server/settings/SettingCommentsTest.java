package dev.feedstore.server.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The javadoc comment of each setting's constant in {@link ServerSettings} is made from its entry
 * (summary, flag, unit, default, rule), as the deployment guide's table is, so that an entry stays
 * the one place a setting is described. Run with {@code -Dsettings.write=true} to rewrite the
 * comments after changing an entry (the command in {@link SettingsTableTest} rewrites both).
 */
class SettingCommentsTest {
  private static final Path SOURCE = Path.of("src", "main", "java", "dev", "feedstore", "server", "settings",
      "ServerSettings.java");
  private static final int WIDTH = 120;

  @Test
  void eachSettingsCommentIsTheOneItsEntryMakes() throws IOException {
    String source = Files.readString(SOURCE, StandardCharsets.UTF_8);
    if (Boolean.getBoolean("settings.write")) {
      source = rewrite(source);
      Files.writeString(SOURCE, source, StandardCharsets.UTF_8);
    }

    List<String> differences = differences(source);

    assertTrue(differences.isEmpty(), "the comments of these settings in ServerSettings.java differ from their"
        + " entries: " + differences + "\nEdit the entry, then rewrite the comments with -Dsettings.write=true (see"
        + " SettingsTableTest)");
  }

  @Test
  void aCommentThatDriftedOrIsMissingIsNamed() {
    String source = rewrite("""
        public final class ServerSettings {
          public static final Setting<Integer> BLOCK_BYTES = define(...);

          public static final Setting<Long> HEARTBEAT_MS = define(...);
        }
        """);
    String blockBytes = comment(ServerSettings.BLOCK_BYTES);

    assertEquals(List.of(), differences(source));
    assertTrue(blockBytes.startsWith("  /** Largest data of one block. {@code --block-bytes}, in bytes: default"
        + " 1048576 (1 MiB), must be &gt; 0. */"), blockBytes);
    assertEquals(List.of("BLOCK_BYTES"), differences(source.replace("Largest data", "Largest content")));
    assertEquals(List.of("HEARTBEAT_MS"), differences(source.replace(comment(ServerSettings.HEARTBEAT_MS), "")));
    assertEquals(source, rewrite(source.replace("Largest data", "Largest content")));
  }

  /** The constants named in {@code source} whose comment is not the one their entry makes. */
  private static List<String> differences(String source) {
    List<String> lines = List.of(source.split("\n", -1));
    List<String> differing = new ArrayList<>();
    for (Map.Entry<String, Setting<?>> constant : constants().entrySet()) {
      int declaration = declaration(lines, constant.getKey());
      if (declaration >= 0) {
        int start = commentStart(lines, declaration);
        String written = String.join("\n", lines.subList(start, declaration)) + (start < declaration ? "\n" : "");
        if (!written.equals(comment(constant.getValue()))) {
          differing.add(constant.getKey());
        }
      }
    }
    return differing;
  }

  /** {@code source} with the comment of every constant it declares made from its entry. */
  private static String rewrite(String source) {
    List<String> lines = new ArrayList<>(List.of(source.split("\n", -1)));
    for (Map.Entry<String, Setting<?>> constant : constants().entrySet()) {
      int declaration = declaration(lines, constant.getKey());
      if (declaration >= 0) {
        int start = commentStart(lines, declaration);
        lines.subList(start, declaration).clear();
        lines.addAll(start, List.of(comment(constant.getValue()).split("\n")));
      }
    }
    return String.join("\n", lines);
  }

  /**
   * The comment of one setting, indented for a constant and ending with a newline: its summary, then
   * its flag, unit, default and rule, wrapped at {@value #WIDTH} characters.
   */
  private static String comment(Setting<?> setting) {
    String unit = switch (setting.unit()) {
      case BYTES -> ", in bytes";
      case MILLISECONDS -> ", in milliseconds";
      default -> "";
    };
    String rule = setting.rule().isEmpty() ? "" : ", must be " + javadoc(setting.rule());
    String text = javadoc(setting.summary()) + " {@code --" + setting.name() + "}" + unit + ": default "
        + javadoc(SettingsTable.shown(setting)) + rule + ".";
    if (("  /** " + text + " */").length() <= WIDTH) {
      return "  /** " + text + " */\n";
    }
    StringBuilder comment = new StringBuilder("  /**\n");
    StringBuilder line = new StringBuilder("   *");
    for (String word : text.split(" ")) {
      if (line.length() + 1 + word.length() > WIDTH && line.length() > "   *".length()) {
        comment.append(line).append('\n');
        line = new StringBuilder("   *");
      }
      line.append(' ').append(word);
    }
    return comment.append(line).append("\n   */\n").toString();
  }

  /** Text whose {@code `code`} is marked with backticks, as javadoc: code as {@code {@code}}, the rest escaped. */
  private static String javadoc(String text) {
    String[] parts = text.split("`", -1);
    StringBuilder javadoc = new StringBuilder();
    for (int i = 0; i < parts.length; i++) {
      javadoc.append(i % 2 == 1 ? "{@code " + parts[i] + "}"
          : parts[i].replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("@", "&#64;"));
    }
    return javadoc.toString();
  }

  /** Every setting constant of {@link ServerSettings} by its field name. */
  private static Map<String, Setting<?>> constants() {
    Map<String, Setting<?>> constants = new LinkedHashMap<>();
    for (Field field : ServerSettings.class.getFields()) {
      if (field.getType() == Setting.class && Modifier.isStatic(field.getModifiers())) {
        try {
          constants.put(field.getName(), (Setting<?>) field.get(null));
        } catch (IllegalAccessException e) {
          throw new AssertionError(e);
        }
      }
    }
    return constants;
  }

  /** The line that declares the constant {@code name}, or -1. */
  private static int declaration(List<String> lines, String name) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).matches("  public static final Setting<\\w+> " + name + " = .*")) {
        return i;
      }
    }
    return -1;
  }

  /** The first line of the comment just above {@code declaration}, or {@code declaration} when it has none. */
  private static int commentStart(List<String> lines, int declaration) {
    if (declaration == 0 || !lines.get(declaration - 1).strip().endsWith("*/")) {
      return declaration;
    }
    int start = declaration - 1;
    while (start > 0 && !lines.get(start).strip().startsWith("/**")) {
      start--;
    }
    return start;
  }
}
