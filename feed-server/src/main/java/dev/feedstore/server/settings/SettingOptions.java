package dev.feedstore.server.settings;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The command-line options of the settings: one {@code --NAME} option for every entry of {@link
 * ServerSettings#ALL}, with its type, unit, default and description taken from the entry, added to
 * {@code Main}'s command after its own options. Stateless and thread-safe.
 */
public final class SettingOptions implements CommandLine.IModelTransformer {
  @Override
  public CommandSpec transform(CommandSpec command) {
    for (Setting<?> setting : ServerSettings.ALL) {
      command.addOption(OptionSpec.builder("--" + setting.name())
          .type(setting.type())
          .paramLabel(setting.unit().label())
          .description(description(setting))
          .defaultValue(String.valueOf(setting.defaultValue()))
          .build());
    }
    return command;
  }

  /**
   * The settings the options of {@code command} hold, after it parsed a command line.
   *
   * @throws dev.feedstore.core.InvalidValueException naming the setting whose value cannot work
   */
  public static ServerSettings settings(CommandSpec command) {
    ServerSettings.Builder settings = ServerSettings.newBuilder();
    for (Setting<?> setting : ServerSettings.ALL) {
      set(settings, setting, command.findOption("--" + setting.name()).getValue());
    }
    return settings.build();
  }

  /** What {@code --help} says of a setting: its summary, and its rule unless it is only {@code > 0}. */
  public static String description(Setting<?> setting) {
    String rule = setting.rule();
    String text = setting.summary() + (rule.equals("> 0") ? "" : " Must be " + rule + ".");
    // picocli reads % as the start of a format specifier.
    return text.replace("`", "").replace("%", "%%");
  }

  private static <T> void set(ServerSettings.Builder settings, Setting<T> setting, Object value) {
    settings.set(setting, setting.type().cast(value));
  }
}
