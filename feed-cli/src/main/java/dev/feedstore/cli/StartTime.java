package dev.feedstore.cli;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A time to start reading from ({@code --since}): an ISO-8601 instant ({@code 2026-12-02T09:30:00Z}),
 * a date-time with an offset ({@code 2026-12-02T10:30:00+01:00}) or Unix milliseconds. The
 * authority compares it with the receive times it stamped on blocks, on its own clock.
 */
final class StartTime implements ITypeConverter<Instant> {

  @Override
  public Instant convert(String value) {
    Instant time = parse(value);
    try {
      time.toEpochMilli();
    } catch (ArithmeticException e) {
      throw refused(value);
    }
    return time;
  }

  private static Instant parse(String value) {
    if (!value.isEmpty() && value.chars().allMatch(c -> c >= '0' && c <= '9')) {
      try {
        return Instant.ofEpochMilli(Long.parseLong(value));
      } catch (NumberFormatException e) {
        throw refused(value);
      }
    }
    try {
      return Instant.parse(value);
    } catch (DateTimeException notAnInstant) {
      try {
        return OffsetDateTime.parse(value).toInstant();
      } catch (DateTimeException e) {
        throw refused(value);
      }
    }
  }

  private static TypeConversionException refused(String value) {
    return new TypeConversionException("a time must be ISO-8601 with a zone (2026-12-02T09:30:00Z or"
        + " 2026-12-02T10:30:00+01:00) or Unix milliseconds (0 or more), was '" + value + "'");
  }
}
