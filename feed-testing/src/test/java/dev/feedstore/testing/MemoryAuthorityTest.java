package dev.feedstore.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.ActorId;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.Sequence;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.sync.Authority;
import dev.feedstore.core.sync.PullRequest;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The in-memory authority answers as the contract says, and refuses what it does not model, by name. */
class MemoryAuthorityTest extends AuthorityContract {
  private static final SpaceId SPACE = SpaceId.of("memory");

  private final MemoryAuthority authority = new MemoryAuthority();

  @Override
  protected Authority authority() {
    return authority;
  }

  @Override
  protected Object snapshot() {
    return authority.snapshot();
  }

  @Override
  protected void restore(Object snapshot) {
    authority.restore((MemoryAuthority.Snapshot) snapshot);
  }

  @Override
  protected void wipe() {
    authority.wipe();
  }

  @Test
  void anAppendedBlockThatCarriesAPositionIsRefusedAndNothingIsWritten() {
    Block positioned = Block.unpositioned(new BlockKey(FeedId.generate(), ActorId.of("a"),
        Sequence.FIRST), Optional.empty(), 1, BlockData.utf8("x")).withPosition(Position.of(4));

    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> authority.append(SPACE, Optional.empty(), List.of(positioned)));

    assertTrue(refused.getMessage().contains("carries no position"), refused.getMessage());
    assertEquals(List.of(), authority.blocks(SPACE));
  }

  @Test
  void aReadFromAStartTimeIsRefusedNamingIt() {
    PullRequest since = new PullRequest(SPACE, Scope.WHOLE_SPACE, Position.NONE, 10, Optional.empty(),
        OptionalLong.of(1_000));

    UnsupportedOperationException refused = assertThrows(UnsupportedOperationException.class,
        () -> authority.pull(since));

    assertTrue(refused.getMessage().contains("start time 1000"), refused.getMessage());
  }

  @Test
  void aSnapshotIsNotChangedByWhatIsAppendedAfterIt() {
    MemoryAuthority.Snapshot empty = authority.snapshot();
    authority.append(SPACE, Optional.empty(), List.of(Block.unpositioned(new BlockKey(
        FeedId.generate(), ActorId.of("a"), Sequence.FIRST), Optional.empty(), 1,
        BlockData.utf8("x"))));

    authority.restore(empty);

    assertEquals(List.of(), authority.blocks(SPACE));
  }
}
