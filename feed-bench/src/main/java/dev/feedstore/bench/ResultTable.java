package dev.feedstore.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * The one table a run prints: a row per figure, with its baseline (the limit it is compared with),
 * the ratio to it, and the target. Pipe-separated with a header, so runs can be compared with
 * {@code diff} or split on {@code |}. Thread-safe.
 */
final class ResultTable {

  /** What a row is held to. */
  record Target(String text, Check check) {
    static final Target NONE = new Target("-", null);

    boolean hasCheck() {
      return check != null;
    }

    static Target atLeastRatio(double ratio) {
      return new Target(String.format(Locale.ROOT, "ratio >= %.2f", ratio), (value, r) -> r >= ratio);
    }

    static Target atMostRatio(double ratio) {
      return new Target(String.format(Locale.ROOT, "ratio <= %.2f", ratio), (value, r) -> r <= ratio);
    }

    static Target atLeast(double minimum, String unit) {
      return new Target(">= " + format(minimum) + " " + unit, (value, r) -> value >= minimum);
    }

    static Target atMost(double maximum, String unit) {
      return new Target("<= " + format(maximum) + " " + unit, (value, r) -> value <= maximum);
    }
  }

  @FunctionalInterface
  interface Check {
    boolean test(double value, double ratio);
  }

  record Row(String metric, double value, String unit, double baseline, Target target) {
    double ratio() {
      return Double.isNaN(baseline) || baseline == 0 ? Double.NaN : value / baseline;
    }
  }

  private final List<Row> rows = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();

  synchronized void add(String metric, double value, String unit) {
    rows.add(new Row(metric, value, unit, Double.NaN, Target.NONE));
  }

  synchronized void add(String metric, double value, String unit, Target target) {
    rows.add(new Row(metric, value, unit, Double.NaN, target));
  }

  synchronized void add(String metric, double value, String unit, double baseline, Target target) {
    rows.add(new Row(metric, value, unit, baseline, target));
  }

  /** A line printed under the table, starting with {@code #}. */
  synchronized void note(String text) {
    notes.add(text);
  }

  /** The value of the row {@code metric} added last, if one was. */
  synchronized OptionalDouble value(String metric) {
    for (int i = rows.size() - 1; i >= 0; i--) {
      if (rows.get(i).metric().equals(metric)) {
        return OptionalDouble.of(rows.get(i).value());
      }
    }
    return OptionalDouble.empty();
  }

  synchronized List<Row> rows() {
    return List.copyOf(rows);
  }

  synchronized void print(PrintStream out, List<String> header) {
    header.forEach(line -> out.println("# " + line));
    String[] titles = {"metric", "value", "unit", "baseline", "ratio", "target", "pass"};
    List<String[]> cells = new ArrayList<>();
    cells.add(titles);
    for (Row row : rows) {
      Target target = row.target();
      String pass = target.hasCheck() ? (target.check().test(row.value(), row.ratio()) ? "yes" : "NO") : "-";
      cells.add(new String[] {row.metric(), format(row.value()), row.unit(),
          Double.isNaN(row.baseline()) ? "-" : format(row.baseline()),
          Double.isNaN(row.ratio()) ? "-" : String.format(Locale.ROOT, "%.2f", row.ratio()),
          target.text(), pass});
    }
    int[] widths = new int[titles.length];
    for (String[] line : cells) {
      for (int i = 0; i < line.length; i++) {
        widths[i] = Math.max(widths[i], line[i].length());
      }
    }
    for (String[] line : cells) {
      StringBuilder text = new StringBuilder();
      for (int i = 0; i < line.length; i++) {
        if (i > 0) {
          text.append(" | ");
        }
        text.append(i == 1 || i == 3 || i == 4 ? pad(line[i], widths[i], true) : pad(line[i], widths[i], false));
      }
      out.println(text.toString().stripTrailing());
    }
    notes.forEach(line -> out.println("# " + line));
    out.flush();
  }

  private static String pad(String text, int width, boolean right) {
    String spaces = " ".repeat(width - text.length());
    return right ? spaces + text : text + spaces;
  }

  static String format(double value) {
    if (Double.isNaN(value)) {
      return "-";
    }
    double magnitude = Math.abs(value);
    if (magnitude >= 100 || value == Math.rint(value)) {
      return String.format(Locale.ROOT, "%.0f", value);
    }
    if (magnitude >= 10) {
      return String.format(Locale.ROOT, "%.1f", value);
    }
    return String.format(Locale.ROOT, "%.2f", value);
  }
}
