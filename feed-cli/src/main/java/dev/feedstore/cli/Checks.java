package dev.feedstore.cli;

/** Checks of numeric options, refused with the option, the rule and the value. Stateless. */
final class Checks {
  private Checks() {}

  static void atLeast(String option, long value, long min) {
    if (value < min) {
      throw new CliException(option + " must be >= " + min + ", was " + value, FeedCtl.Exit.USAGE);
    }
  }
}
