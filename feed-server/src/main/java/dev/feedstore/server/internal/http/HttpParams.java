package dev.feedstore.server.internal.http;

import dev.feedstore.core.InvalidValueException;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Fields;

/**
 * The query parameters of one HTTP request, checked against the names its endpoint takes: an
 * unknown name, a repeated single value or a number that does not parse is an {@link
 * InvalidValueException} naming the parameter. Not thread-safe.
 */
final class HttpParams {
  private final Fields fields;

  private HttpParams(Fields fields) {
    this.fields = fields;
  }

  /**
   * The parameters of {@code request}.
   *
   * @throws InvalidValueException if it has a parameter not in {@code known}
   */
  static HttpParams of(Request request, Set<String> known) {
    Fields fields;
    try {
      fields = Request.extractQueryParameters(request);
    } catch (RuntimeException e) {
      throw new InvalidValueException("query", "must be a well-formed query string (name=value&..., UTF-8"
          + " percent-encoded)", RateLimitedLog.clip(String.valueOf(request.getHttpURI().getQuery())));
    }
    Set<String> unknown = new TreeSet<>(fields.getNames());
    unknown.removeAll(known);
    if (!unknown.isEmpty()) {
      throw new InvalidValueException("query", "may only name " + String.join(", ", new TreeSet<>(known)),
          RateLimitedLog.clip(String.join(", ", unknown)));
    }
    return new HttpParams(fields);
  }

  /** Every value of {@code name}, in order. */
  List<String> all(String name) {
    Fields.Field field = fields.get(name);
    return field == null ? List.of() : new ArrayList<>(field.getValues());
  }

  /** The one value of {@code name}, if given. */
  Optional<String> one(String name) {
    List<String> values = all(name);
    if (values.size() > 1) {
      throw new InvalidValueException(name, "must be given at most once", values.size() + " times");
    }
    return values.stream().findFirst();
  }

  /** The value of {@code name} as a number >= 0, if given. */
  OptionalLong count(String name) {
    Optional<String> value = one(name);
    return value.isEmpty() ? OptionalLong.empty() : OptionalLong.of(count(name, value.get()));
  }

  /**
   * The value of {@code name} as a time in Unix milliseconds, if given: a whole number of
   * milliseconds, or an ISO-8601 instant ({@code 2026-01-31T12:00:00Z}, an offset instead of Z too).
   */
  OptionalLong time(String name) {
    Optional<String> value = one(name);
    if (value.isEmpty()) {
      return OptionalLong.empty();
    }
    String text = value.get().strip();
    try {
      return OptionalLong.of(Long.parseLong(text));
    } catch (NumberFormatException notMillis) {
      try {
        return OptionalLong.of(java.time.OffsetDateTime.parse(text).toInstant().toEpochMilli());
      } catch (java.time.format.DateTimeParseException | ArithmeticException e) {
        throw new InvalidValueException(name, "must be Unix milliseconds or an ISO-8601 instant such as"
            + " 2026-01-31T12:00:00Z", RateLimitedLog.clip(value.get()));
      }
    }
  }

  /** {@code value}, named {@code name}, as a number >= 0. */
  static long count(String name, String value) {
    try {
      long parsed = Long.parseLong(value.strip());
      if (parsed >= 0) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // named below
    }
    throw new InvalidValueException(name, "must be a whole number >= 0", RateLimitedLog.clip(value));
  }
}
