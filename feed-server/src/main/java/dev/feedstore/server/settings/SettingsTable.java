package dev.feedstore.server.settings;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The settings as the Markdown table of {@code docs/deployment.md}: a row for each entry of {@link
 * ServerSettings#ALL}, in its order, between two marker lines of that file. Stateless and
 * thread-safe.
 */
final class SettingsTable {
  /** The line before the table in the document. */
  static final String BEGIN =
      "<!-- settings table: made from ServerSettings by SettingsTableTest; edit the entries there -->";
  /** The line after the table in the document. */
  static final String END = "<!-- end of settings table -->";
  /** The table's header: its column names and the line under them. */
  static final String HEADER = "| flag | default | allowed | applies to | what it sets |\n|---|---|---|---|---|";

  private SettingsTable() {}

  /** The header and a row for every setting, each line ending with a newline. */
  static String markdown() {
    StringBuilder table = new StringBuilder(HEADER).append('\n');
    for (Setting<?> setting : ServerSettings.ALL) {
      table.append(row(setting)).append('\n');
    }
    return table.toString();
  }

  /** The row of one setting, e.g. {@code | `--tail-blocks` | 4096 | > 0 | live streams | Recently ... |}. */
  static String row(Setting<?> setting) {
    String text = setting.details().isEmpty() ? setting.summary() : setting.summary() + " " + setting.details();
    return "| `--" + setting.name() + "` | " + shown(setting) + " | " + cell(setting.rule()) + " | "
        + setting.area().label() + " | " + cell(text) + " |";
  }

  /**
   * {@code document} with the lines between its markers replaced by {@link #markdown()}.
   *
   * @throws IllegalArgumentException if the document lacks a marker
   */
  static String rewrite(String document) {
    int[] table = between(document);
    return document.substring(0, table[0]) + markdown() + document.substring(table[1]);
  }

  /**
   * The rows between the markers of {@code document}, without the header.
   *
   * @throws IllegalArgumentException if the document lacks a marker
   */
  static List<String> rows(String document) {
    int[] table = between(document);
    List<String> rows = new ArrayList<>();
    for (String line : document.substring(table[0], table[1]).split("\n")) {
      if (!line.isBlank() && HEADER.lines().noneMatch(line::equals)) {
        rows.add(line);
      }
    }
    return rows;
  }

  /**
   * Where the table of {@code document} differs from the entries, one line per setting, naming it:
   * a row that says other than its entry, a setting without a row, a row without a setting, rows out
   * of the table's order. Empty when the table is as the entries make it.
   *
   * @throws IllegalArgumentException if the document lacks a marker
   */
  static List<String> differences(String document) {
    List<String> differences = new ArrayList<>();
    Map<String, String> rows = new LinkedHashMap<>();
    for (String row : rows(document)) {
      rows.put(flag(row), row);
    }
    List<String> expected = new ArrayList<>();
    for (Setting<?> setting : ServerSettings.ALL) {
      String flag = setting.toString();
      expected.add(flag);
      String row = rows.get(flag);
      if (row == null) {
        differences.add(flag + " has no row");
      } else if (!row.equals(row(setting))) {
        differences.add(flag + "'s row says\n  " + row + "\nbut its entry says\n  " + row(setting));
      }
    }
    for (String flag : rows.keySet()) {
      if (!expected.contains(flag)) {
        differences.add(flag + " has a row but no entry");
      }
    }
    List<String> order = new ArrayList<>(rows.keySet());
    order.retainAll(expected);
    List<String> listed = new ArrayList<>(expected);
    listed.retainAll(order);
    if (!order.equals(listed)) {
      differences.add("the rows are not in the order of the entries: " + order);
    }
    return differences;
  }

  /** The flag a row is about: its first cell without the backticks, e.g. {@code --tail-blocks}. */
  private static String flag(String row) {
    String first = row.substring(1, Math.max(1, row.indexOf('|', 1))).strip();
    return first.replace("`", "");
  }

  /** Where the table of {@code document} starts (after the line {@link #BEGIN}) and ends (at {@link #END}). */
  private static int[] between(String document) {
    int begin = document.indexOf(BEGIN + "\n");
    int end = begin < 0 ? -1 : document.indexOf(END, begin);
    if (end < 0) {
      throw new IllegalArgumentException("the document has no settings table: it needs the line " + BEGIN
          + " before it and the line " + END + " after it");
    }
    return new int[] {begin + BEGIN.length() + 1, end};
  }

  /** The default, with a readable size or duration beside the number: {@code 1048576 (1 MiB)}. */
  static String shown(Setting<?> setting) {
    Object value = setting.defaultValue();
    if (!(value instanceof Number number)) {
      return "`" + value + "`";
    }
    long n = number.longValue();
    String readable = switch (setting.unit()) {
      case BYTES -> bytes(n);
      case MILLISECONDS -> duration(n);
      default -> "";
    };
    return readable.isEmpty() ? String.valueOf(n) : n + " (" + readable + ")";
  }

  private static String bytes(long n) {
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    int unit = -1;
    long shown = n;
    while (shown >= 1024 && shown % 1024 == 0 && unit < units.length - 1) {
      shown /= 1024;
      unit++;
    }
    return unit < 0 ? "" : shown + " " + units[unit];
  }

  private static String duration(long millis) {
    if (millis < 1000 || millis % 1000 != 0) {
      return "";
    }
    if (millis % 3_600_000 == 0) {
      return millis / 3_600_000 + " h";
    }
    return millis % 60_000 == 0 ? millis / 60_000 + " min" : millis / 1000 + " s";
  }

  private static String cell(String text) {
    return text.replace("|", "\\|");
  }
}
