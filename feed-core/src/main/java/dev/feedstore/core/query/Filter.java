package dev.feedstore.core.query;

import dev.feedstore.core.json.CodePointOrder;
import dev.feedstore.core.json.JsonValue;
import dev.feedstore.core.json.JsonWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * An AND of predicates; the empty filter matches every version. Normalised: the predicates are
 * sorted by their canonical JSON and appear once, so {@code a and b} and {@code b and a} are one
 * filter. Thread-safe (immutable).
 */
public record Filter(List<Predicate> predicates) {
  /** The filter without predicates: every version matches. */
  public static final Filter ALL = new Filter(List.of());

  private static final Comparator<Predicate> CANONICAL =
      Comparator.comparing(p -> JsonWriter.canonical(p.toJson()), CodePointOrder.COMPARATOR);

  /**
   * The AND of {@code predicates}, normalised: duplicates dropped, the rest sorted by canonical JSON.
   *
   * @throws NullPointerException if the list or a predicate is null
   */
  public Filter {
    List<Predicate> sorted = new ArrayList<>();
    for (Predicate predicate : predicates) {
      if (!sorted.contains(predicate)) {
        sorted.add(predicate);
      }
    }
    sorted.sort(CANONICAL);
    predicates = List.copyOf(sorted);
  }

  /** The AND of {@code predicates}; none is {@link #ALL}. */
  public static Filter of(Predicate... predicates) {
    return new Filter(List.of(predicates));
  }

  /** True when {@code version} passes every predicate. */
  public boolean matches(ParsedBlock version) {
    for (Predicate predicate : predicates) {
      if (!predicate.matches(version)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The predicate an index of queries by value finds this filter's versions by: of the predicates
   * with {@link Predicate#equalValues() equal values}, the one with the fewest values (the first in
   * the canonical order among those); empty when there is none. Every version that passes the
   * filter has, at that predicate's field, one of its values.
   */
  public Optional<Predicate> indexable() {
    Predicate best = null;
    int fewest = Integer.MAX_VALUE;
    for (Predicate predicate : predicates) {
      Optional<List<JsonValue>> values = predicate.equalValues();
      if (values.isPresent() && values.get().size() < fewest) {
        best = predicate;
        fewest = values.get().size();
      }
    }
    return Optional.ofNullable(best);
  }

  /** True for the filter without predicates, which every version passes. */
  public boolean isEmpty() {
    return predicates.isEmpty();
  }

  /** The text form: the predicates joined by {@code and}. */
  @Override
  public String toString() {
    return QueryText.condition(this);
  }
}
