package dev.feedstore.core.query.result;

import dev.feedstore.core.query.Row;
import dev.feedstore.core.query.RowOrder;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;

/**
 * The window of a query without a limit: every member is shown, so adding or removing one moves
 * no other and needs no comparison; the order is made only when the rows are asked for (a
 * snapshot), by sorting them. It keeps nothing per member beyond the result's own map.
 *
 * <p>Not thread-safe: owned by one {@link LiveResult}.
 */
final class UnlimitedWindow implements Window {
  private final RowOrder order;
  /** The result's members, all of them shown (a live view, owned by the result). */
  private final Collection<Member> members;
  private final Consumer<Member> beforeMove;

  /**
   * @param members the result's members, a view the result keeps up to date
   * @param beforeMove told of a member just before it enters or leaves the result
   */
  UnlimitedWindow(RowOrder order, Collection<Member> members, Consumer<Member> beforeMove) {
    this.order = order;
    this.members = members;
    this.beforeMove = beforeMove;
  }

  @Override
  public void add(Member member) {
    beforeMove.accept(member);
    member.shown = true;
  }

  @Override
  public void remove(Member member) {
    beforeMove.accept(member);
    member.shown = false;
  }

  @Override
  public List<Row> rows() {
    List<Row> rows = new ArrayList<>(members.size());
    members.forEach(member -> rows.add(member.row));
    rows.sort(order);
    return rows;
  }

  @Override
  public int shownCount() {
    return members.size();
  }

  @Override
  public long comparisons() {
    return 0;
  }
}
