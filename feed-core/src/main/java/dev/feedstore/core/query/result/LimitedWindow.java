package dev.feedstore.core.query.result;

import dev.feedstore.core.query.Row;
import dev.feedstore.core.query.RowOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The window of a query with a limit: the members in the query's order, split into the first
 * {@code limit} (shown: the result) and the rest (hidden, waiting to move in). Adding or removing a
 * member costs O(log n) comparisons, and moves at most one other member across the boundary: a
 * member added inside the window pushes the last shown one out, a shown member removed lets the
 * first hidden one in.
 *
 * <p>Not thread-safe: owned by one {@link LiveResult}.
 */
final class LimitedWindow implements Window {
  private final int limit;
  private final TreeSet<Member> shown;
  private final TreeSet<Member> hidden;
  /** Told of a member just before it enters or leaves the shown part. */
  private final Consumer<Member> beforeMove;
  /** Comparisons of members made so far, so tests can see what a change cost. */
  private long comparisons;
  /** A fault for tests that prove a check can fail: a shown member removed lets no hidden one in. */
  private final boolean refillBroken;

  /**
   * @param beforeMove told of a member just before it enters or leaves the shown part
   * @param refillBroken a fault for tests that prove a check can fail: a shown member removed lets
   *     no hidden one in
   */
  LimitedWindow(RowOrder order, int limit, Consumer<Member> beforeMove, boolean refillBroken) {
    Comparator<Member> counted = (a, b) -> {
      comparisons++;
      return order.compare(a.row, b.row);
    };
    this.limit = limit;
    this.shown = new TreeSet<>(counted);
    this.hidden = new TreeSet<>(counted);
    this.beforeMove = beforeMove;
    this.refillBroken = refillBroken;
  }

  @Override
  public void add(Member member) {
    if (shown.size() < limit) {
      show(member);
    } else if (shown.comparator().compare(member, shown.last()) < 0) {
      Member pushedOut = shown.last();
      hide(pushedOut);
      show(member);
    } else {
      hidden.add(member);
    }
  }

  @Override
  public void remove(Member member) {
    if (!member.shown) {
      hidden.remove(member);
      return;
    }
    beforeMove.accept(member);
    shown.remove(member);
    member.shown = false;
    if (!hidden.isEmpty() && !refillBroken) {
      show(hidden.pollFirst());
    }
  }

  @Override
  public List<Row> rows() {
    List<Row> rows = new ArrayList<>(shown.size());
    shown.forEach(member -> rows.add(member.row));
    return rows;
  }

  @Override
  public int shownCount() {
    return shown.size();
  }

  @Override
  public long comparisons() {
    return comparisons;
  }

  private void show(Member member) {
    beforeMove.accept(member);
    member.shown = true;
    shown.add(member);
  }

  private void hide(Member member) {
    beforeMove.accept(member);
    shown.remove(member);
    member.shown = false;
    hidden.add(member);
  }
}
