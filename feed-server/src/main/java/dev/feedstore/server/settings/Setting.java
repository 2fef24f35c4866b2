package dev.feedstore.server.settings;

import dev.feedstore.core.InvalidValueException;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * One setting of the server, defined once in the table of {@link ServerSettings}: its name (the
 * command-line flag without its dashes, and the name errors give), type, default, bounds, unit,
 * where it applies and what it does. The command-line options and their {@code --help}, the checks
 * of {@link ServerSettings.Builder#build()} and the settings table of {@code docs/deployment.md}
 * all come from these definitions. Immutable and thread-safe.
 *
 * @param <T> the type of its value: {@code Integer}, {@code Long} or {@code String}
 */
public final class Setting<T> {
  /** What a setting's value is in; the label of the value in {@code --help}. */
  public enum Unit {
    /** A number of bytes. */
    BYTES("BYTES"),
    /** A duration in milliseconds. */
    MILLISECONDS("MS"),
    /** A number of things (blocks, streams, threads, requests), or a level. */
    COUNT("N"),
    /** A space id. */
    SPACE("SPACE");

    private final String label;

    Unit(String label) {
      this.label = label;
    }

    /** How {@code --help} names a value of this unit, e.g. {@code MS}. */
    public String label() {
      return label;
    }
  }

  /** Where a setting applies: what it bounds or tunes. Settings are listed by area. */
  public enum Area {
    /** What one request may carry or ask for, on gRPC and HTTP alike. */
    REQUESTS("requests"),
    /** Live streams (Watch, Server-Sent Events) and live queries: how many, and what they hold. */
    LIVE("live streams"),
    /** Stored subscriptions: how long they live and how many a space has. */
    SUBSCRIPTIONS("subscriptions"),
    /** The store, whichever it is: how much it holds, how it commits, how its health is probed. */
    STORE("store"),
    /** The SQLite store only. */
    SQLITE("SQLite store"),
    /** How much history spaces keep. */
    RETENTION("retention"),
    /** What one caller (a JWT subject, a token, a client host) may use. */
    PRINCIPALS("principals"),
    /** The gRPC side's connections. */
    GRPC("gRPC connections"),
    /** The HTTP side: the API and the metrics endpoint. */
    HTTP("HTTP"),
    /** The Durable Streams protocol of the HTTP side. */
    DURABLE_STREAMS("Durable Streams"),
    /** The process: its threads, its shutdown, its log. */
    PROCESS("process");

    private final String label;

    Area(String label) {
      this.label = label;
    }

    /** How the settings table names the area, e.g. {@code live streams}. */
    public String label() {
      return label;
    }
  }

  /** A bound of a number, inclusive, and why it is there (or null). */
  private record Bound(long value, String why) {}

  /** This setting's value must be above ({@code above}) or at most the value of {@code other}. */
  private record Relation(Setting<?> other, boolean above, String why) {}

  /** What a text value must look like: {@code check} throws {@link InvalidValueException}; {@code rule} says it. */
  private record Form(Consumer<String> check, String rule) {}

  private final int index;
  private final String name;
  private final Class<T> type;
  private final T defaultValue;
  private final Unit unit;
  private final Area area;
  private final Bound lowest;
  private final Bound highest;
  private final Relation relation;
  private final Form form;
  private final String summary;
  private final String details;

  private Setting(int index, Definition<T> d) {
    this.index = index;
    this.name = d.name;
    this.type = d.type;
    this.defaultValue = d.defaultValue;
    this.unit = Objects.requireNonNull(d.unit, () -> d.name + " has no unit");
    this.area = Objects.requireNonNull(d.area, () -> d.name + " has no area");
    this.lowest = d.lowest;
    this.highest = d.highest;
    this.relation = d.relation;
    this.form = d.form;
    this.summary = Objects.requireNonNull(d.summary, () -> d.name + " has no doc");
    this.details = d.details;
    check(defaultValue);
  }

  static Definition<Integer> ofInt(String name, int defaultValue) {
    return new Definition<>(name, Integer.class, defaultValue);
  }

  static Definition<Long> ofLong(String name, long defaultValue) {
    return new Definition<>(name, Long.class, defaultValue);
  }

  static Definition<String> ofText(String name, String defaultValue) {
    return new Definition<>(name, String.class, defaultValue);
  }

  /** The name: the command-line flag without its dashes, and the name errors give, e.g. {@code block-bytes}. */
  public String name() {
    return name;
  }

  /** The type of the value: {@code Integer.class}, {@code Long.class} or {@code String.class}. */
  public Class<T> type() {
    return type;
  }

  /** The value when none is given; within the setting's own bounds. */
  public T defaultValue() {
    return defaultValue;
  }

  /** What the value is in. */
  public Unit unit() {
    return unit;
  }

  /** Where it applies: the settings table and {@code --help} list settings by area. */
  public Area area() {
    return area;
  }

  /** The lowest value allowed on its own (a relation to another setting may ask more). Numbers only. */
  public long min() {
    return lowest != null ? lowest.value : type == Integer.class ? Integer.MIN_VALUE : Long.MIN_VALUE;
  }

  /** The highest value allowed on its own (a relation to another setting may ask less). Numbers only. */
  public long max() {
    return highest != null ? highest.value : type == Integer.class ? Integer.MAX_VALUE : Long.MAX_VALUE;
  }

  /** What it sets, in one sentence, as {@code --help} shows it; {@code `code`} is marked with backticks. */
  public String summary() {
    return summary;
  }

  /** More about it for the deployment guide (limits, memory, why the default), or empty. */
  public String details() {
    return details;
  }

  /**
   * The values it may take, as the settings table and {@code --help} show them: {@code > 0},
   * {@code 1 to 65536}, {@code >= 0 (0 keeps everything)}, {@code <= query-limit}.
   */
  public String rule() {
    StringBuilder rule = new StringBuilder();
    if (form != null) {
      rule.append(form.rule);
    } else if (lowest != null && highest != null) {
      rule.append(lowest.value).append(" to ").append(highest.value).append(why(lowest)).append(why(highest));
    } else if (lowest != null) {
      rule.append(lower());
    } else if (highest != null) {
      rule.append(upper());
    }
    if (relation != null) {
      rule.append(rule.length() == 0 ? "" : ", ").append(relation.above ? "above " : "<= ").append(relation.other.name);
    }
    return rule.toString();
  }

  @Override
  public String toString() {
    return "--" + name;
  }

  /** Its place in the table, which is also the place of its value in a {@link ServerSettings}. */
  int index() {
    return index;
  }

  /**
   * Checks a value against this setting's own bounds.
   *
   * @throws InvalidValueException naming this setting, the rule and the value
   */
  void check(Object value) {
    if (value == null) {
      throw new InvalidValueException(name, "must be given", null);
    }
    if (form != null) {
      try {
        form.check.accept((String) value);
      } catch (InvalidValueException e) {
        throw e.withField(name);
      }
      return;
    }
    long number = ((Number) value).longValue();
    if (lowest != null && number < lowest.value) {
      throw new InvalidValueException(name, "must be " + lower(), value);
    }
    if (highest != null && number > highest.value) {
      throw new InvalidValueException(name, "must be " + upper(), value);
    }
  }

  /**
   * Checks a value against the value of the setting it relates to, if any.
   *
   * @param values the values of every setting, by index
   * @throws InvalidValueException naming this setting, the other one, the rule and both values
   */
  void checkRelation(Object[] values) {
    if (relation == null) {
      return;
    }
    long value = ((Number) values[index]).longValue();
    long other = ((Number) values[relation.other.index]).longValue();
    if (relation.above ? value <= other : value > other) {
      throw new InvalidValueException(name, "must be " + (relation.above ? "above " : "<= ") + relation.other.name
          + " (" + other + ")" + (relation.why == null ? "" : " " + relation.why), values[index]);
    }
  }

  private String lower() {
    return (lowest.value == 1 && lowest.why == null ? "> 0" : ">= " + lowest.value) + why(lowest);
  }

  private String upper() {
    return "<= " + highest.value + why(highest);
  }

  private static String why(Bound bound) {
    return bound.why == null ? "" : " (" + bound.why + ")";
  }

  /**
   * A setting being defined: one entry of the table in {@link ServerSettings}, which completes it
   * with its place. Not thread-safe.
   */
  static final class Definition<T> {
    private final String name;
    private final Class<T> type;
    private final T defaultValue;
    private Unit unit;
    private Area area;
    private Bound lowest;
    private Bound highest;
    private Relation relation;
    private Form form;
    private String summary;
    private String details = "";

    private Definition(String name, Class<T> type, T defaultValue) {
      this.name = Objects.requireNonNull(name, "name");
      this.type = type;
      this.defaultValue = Objects.requireNonNull(defaultValue, name);
    }

    Definition<T> unit(Unit value) {
      unit = value;
      return this;
    }

    /** Where it applies. */
    Definition<T> in(Area value) {
      area = value;
      return this;
    }

    Definition<T> atLeast(long min) {
      return atLeast(min, null);
    }

    /** The lowest value, and why (shown in errors and docs), or null. */
    Definition<T> atLeast(long min, String why) {
      lowest = new Bound(min, why);
      return this;
    }

    Definition<T> atMost(long max) {
      return atMost(max, null);
    }

    /** The highest value, and why (shown in errors and docs), or null. */
    Definition<T> atMost(long max, String why) {
      highest = new Bound(max, why);
      return this;
    }

    /** The value may not exceed that of {@code other}, defined before it. */
    Definition<T> atMost(Setting<? extends Number> other) {
      return relate(other, false, null);
    }

    /** The value must exceed that of {@code other}, defined before it; {@code why} follows the rule in errors. */
    Definition<T> above(Setting<? extends Number> other, String why) {
      return relate(other, true, why);
    }

    private Definition<T> relate(Setting<? extends Number> other, boolean above, String why) {
      // A setting defined further down the table is still null here.
      relation = new Relation(Objects.requireNonNull(other, () -> name + " relates to a setting not defined yet"),
          above, why);
      return this;
    }

    /** A text value must pass {@code check}, which throws {@link InvalidValueException}; {@code rule} says so. */
    Definition<T> form(Consumer<String> check, String rule) {
      form = new Form(check, rule);
      return this;
    }

    /** What it sets, in one sentence for {@code --help}. */
    Definition<T> doc(String value) {
      return doc(value, "");
    }

    /** What it sets, in one sentence for {@code --help}, and more for the deployment guide. */
    Definition<T> doc(String value, String more) {
      summary = value;
      details = more;
      return this;
    }

    Setting<T> build(int index) {
      return new Setting<>(index, this);
    }
  }
}
