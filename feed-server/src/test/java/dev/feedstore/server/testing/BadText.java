package dev.feedstore.server.testing;

import java.util.List;

/**
 * Hostile strings for the identifier fields of the wire, each with a label for test names. An
 * identifier ({@code space_id}, {@code namespace}) allows 1-128 characters of {@code
 * [A-Za-z0-9._:-]}; an actor id 1-128 characters of printable ASCII without spaces.
 *
 * @param label how a test name shows it
 * @param value the string sent
 */
public record BadText(String label, String value) {
  /** 100,000 characters: far above every length rule, well under {@code max-message-bytes}. */
  public static final BadText LONG = new BadText("100k chars", "x".repeat(100_000));
  /** 10 MB: a large part of the default 16 MiB message. */
  public static final BadText HUGE = new BadText("10 MB", "x".repeat(10_000_000));
  public static final BadText EMPTY = new BadText("empty", "");

  /** Too short or too long for every id rule. */
  public static List<BadText> lengths() {
    return List.of(EMPTY, LONG);
  }

  /** Characters outside {@code [A-Za-z0-9._:-]} and outside printable ASCII. */
  public static List<BadText> unprintable() {
    return List.of(
        new BadText("unicode", "ñandú"),
        new BadText("emoji", "feed-\uD83D\uDCA5"),
        new BadText("NUL", "a\u0000b"),
        new BadText("newline", "a\nb"),
        new BadText("tab", "a\tb"),
        new BadText("DEL", "a\u007fb"),
        new BadText("space", "a b"));
  }

  /** Printable ASCII outside {@code [A-Za-z0-9._:-]}: wrong for identifiers, fine for actor ids. */
  public static List<BadText> punctuation() {
    return List.of(new BadText("slash", "a/b"), new BadText("path", "../etc"), new BadText("quote", "a'b\""),
        new BadText("SQL", "x');DROP/**/TABLE/**/blocks;--"), new BadText("percent", "%00"));
  }

  /** Every value that breaks the identifier rule by its characters. */
  public static List<BadText> notIdentifiers() {
    return java.util.stream.Stream.concat(unprintable().stream(), punctuation().stream()).toList();
  }

  /** The lists one after the other. */
  @SafeVarargs
  public static List<BadText> concat(List<BadText>... lists) {
    List<BadText> all = new java.util.ArrayList<>();
    for (List<BadText> list : lists) {
      all.addAll(list);
    }
    return all;
  }
}
