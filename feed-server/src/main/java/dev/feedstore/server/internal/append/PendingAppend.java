package dev.feedstore.server.internal.append;

import dev.feedstore.core.Block;
import dev.feedstore.core.Namespace;
import dev.feedstore.server.internal.spaces.SpaceState;
import java.util.List;
import java.util.Optional;

/**
 * One Append on its way through an {@link AppendQueue}: the space, the namespace of the feeds it
 * creates, its distinct blocks and whether its caller may write to their feeds, and, once its group
 * is done, what its transaction did or why it failed.
 *
 * <p>Not thread-safe by itself: the thread that commits its group settles it and hands it to the
 * thread that tells the caller ({@link AppendQueue#submit}), or releases the caller's latch ({@link
 * AppendQueue#append}), so the caller reads what was settled.
 */
public final class PendingAppend {
  private final SpaceState space;
  private final Optional<Namespace> namespace;
  private final List<Block> blocks;
  private final FeedWriteCheck writeCheck;
  private AppendWork.Outcome outcome;
  private RuntimeException failure;

  /**
   * @param blocks distinct keys, unpositioned
   * @param writeCheck whether its caller may write to its feeds, asked in its transaction
   */
  public PendingAppend(SpaceState space, Optional<Namespace> namespace, List<Block> blocks, FeedWriteCheck writeCheck) {
    this.space = space;
    this.namespace = namespace;
    this.blocks = blocks;
    this.writeCheck = writeCheck;
  }

  /** An append whose caller may write to every feed of the space. */
  public PendingAppend(SpaceState space, Optional<Namespace> namespace, List<Block> blocks) {
    this(space, namespace, blocks, FeedWriteCheck.ANY);
  }

  public SpaceState space() {
    return space;
  }

  Optional<Namespace> namespace() {
    return namespace;
  }

  List<Block> blocks() {
    return blocks;
  }

  FeedWriteCheck writeCheck() {
    return writeCheck;
  }

  /** Whether the append committed or failed. */
  boolean settled() {
    return outcome != null || failure != null;
  }

  void committed(AppendWork.Outcome value) {
    outcome = value;
  }

  void failed(RuntimeException cause) {
    failure = cause;
  }

  /**
   * What the append's transaction did.
   *
   * @throws RuntimeException the append's failure, as the store or the append's rules raised it
   */
  public AppendWork.Outcome outcome() {
    if (failure != null) {
      throw failure;
    }
    if (outcome == null) {
      throw new IllegalStateException("the append of space " + space.spaceId().value() + " is not settled yet");
    }
    return outcome;
  }
}
