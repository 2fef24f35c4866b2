package dev.feedstore.core.query.result;

import dev.feedstore.core.query.Row;
import java.util.List;

/**
 * The members of a result that are shown (in the result) and their order. A member added or
 * removed tells the result's {@code beforeMove} hook, just before it enters or leaves the shown
 * part, of itself and of any other member it moves across the limit.
 *
 * <p>Not thread-safe: owned by one {@link LiveResult}.
 */
sealed interface Window permits LimitedWindow, UnlimitedWindow {

  /** Adds a member not yet in the window. */
  void add(Member member);

  /** Removes a member of the window. */
  void remove(Member member);

  /** The shown rows, in the query's order. */
  List<Row> rows();

  /** How many members are shown. */
  int shownCount();

  /** Comparisons of members made so far by adding and removing, so tests can see what a change cost. */
  long comparisons();
}
