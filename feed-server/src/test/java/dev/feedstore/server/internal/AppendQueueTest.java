package dev.feedstore.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.testing.TestBlocks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The queue's own rules, with a committer that records what it is given: queued appends form the
 * next group in arrival order within the block budget, and neither a committer that throws nor a
 * caller whose answer fails stops the appends behind them.
 */
class AppendQueueTest {
  final SpaceState space = new SpaceState(SpaceId.of("s"), ServerToken.random(), new SpaceTail(0, 10, 1 << 20), true);
  final List<List<PendingAppend>> groups = new ArrayList<>();

  @Test
  void appendsQueuedDuringACommitFormTheNextGroupsInArrivalOrderWithinTheBlockBudget() {
    List<PendingAppend> queued = new ArrayList<>();
    AppendQueue[] queue = new AppendQueue[1];
    queue[0] = new AppendQueue(group -> {
      groups.add(group);
      if (groups.size() == 1) {
        // Arrive while the first group is being committed.
        for (int blocks : new int[] {2, 2, 1, 3}) {
          PendingAppend append = append(blocks);
          queued.add(append);
          queue[0].submit(append, () -> { });
        }
      }
      group.forEach(this::settle);
      return () -> { };
    }, 5);

    PendingAppend first = append(1);
    queue[0].submit(first, () -> { });

    assertEquals(List.of(List.of(first), queued.subList(0, 3), queued.subList(3, 4)), groups,
        "2 + 2 + 1 blocks fill a budget of 5; the 3-block append is the next group");
    assertEquals(0, queue[0].waiting());
    assertEquals(3, queue[0].groups());
    assertEquals(5, queue[0].groupedAppends());
  }

  @Test
  void aCommitterThatThrowsFailsWhatItLeftUnsettledAndTheNextAppendsAreCommitted() {
    IllegalStateException broken = new IllegalStateException("broken");
    AppendQueue queue = new AppendQueue(group -> {
      groups.add(group);
      if (groups.size() == 1) {
        throw broken;
      }
      group.forEach(this::settle);
      return () -> { };
    }, 1000);
    PendingAppend first = append(1);
    queue.append(first);
    assertSame(broken, assertThrows(IllegalStateException.class, first::outcome));

    PendingAppend second = append(1);
    queue.append(second);
    assertEquals(1, second.outcome().positions().length);
  }

  @Test
  void aCallerWhoseAnswerFailsDoesNotStopTheAppendsQueuedBehindIt() {
    List<PendingAppend> told = new ArrayList<>();
    AppendQueue[] queue = new AppendQueue[1];
    PendingAppend behind = append(1);
    queue[0] = new AppendQueue(group -> {
      groups.add(group);
      if (groups.size() == 1) {
        queue[0].submit(behind, () -> told.add(behind));
      }
      group.forEach(this::settle);
      return () -> { };
    }, 1000);
    queue[0].submit(append(1), () -> {
      throw new IllegalStateException("the client went away");
    });
    assertEquals(List.of(behind), told);
  }

  private PendingAppend append(int blocks) {
    List<dev.feedstore.core.Block> list = new ArrayList<>();
    for (int i = 0; i < blocks; i++) {
      list.add(TestBlocks.block(TestBlocks.feedId(), "a", i));
    }
    return new PendingAppend(space, Optional.empty(), list);
  }

  private void settle(PendingAppend append) {
    append.committed(new AppendWork.Outcome(new long[append.blocks().size()], List.of(), Map.of(), 1, null));
  }
}
