package dev.feedstore.server.internal.append;

import dev.feedstore.core.Block;
import dev.feedstore.core.Namespace;
import dev.feedstore.server.internal.spaces.SpaceState;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.LinkedHashSet;

/**
 * One Append on its way through an {@link AppendQueue}: the space, the namespace of the feeds it
 * creates, its distinct blocks and whether its caller may write to their feeds, and, once its group
 * is done, what its transaction did or why it failed.
 *
 * <p>An append may {@linkplain #follow follow} earlier appends of the same writer (on one stream):
 * it commits after them, and if one of them failed it fails too, storing nothing.
 *
 * <p>Not thread-safe by itself: the thread that commits its group settles it and hands it to the
 * thread that tells the caller ({@link AppendQueue#submit}), or releases the caller's latch ({@link
 * AppendQueue#append}), so the caller reads what was settled. What it follows is set before it is
 * submitted; whether it settled may be asked from any thread.
 */
public final class PendingAppend {
  private final SpaceState space;
  private final Optional<Namespace> namespace;
  private final List<Block> blocks;
  private final FeedWriteCheck writeCheck;
  private volatile AppendWork.Outcome outcome;
  private volatile RuntimeException failure;
  /** Earlier appends this one commits after; emptied once it is settled, so that no chain of them is kept. */
  private volatile List<PendingAppend> follows = List.of();

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

  /** Whether the append failed. */
  public boolean hasFailed() {
    return failure != null;
  }

  /** Makes this append commit after {@code earlier}, and fail if one of them fails. Before it is submitted. */
  public void follow(List<PendingAppend> earlier) {
    follows = List.copyOf(earlier);
  }

  /** The appends this one follows. */
  List<PendingAppend> follows() {
    return follows;
  }

  /** The feeds of this append (as their ids), in the order of its blocks. */
  public Set<String> feeds() {
    Set<String> feeds = new LinkedHashSet<>();
    blocks.forEach(block -> feeds.add(block.feedId().value()));
    return feeds;
  }

  void committed(AppendWork.Outcome value) {
    outcome = value;
    follows = List.of();
  }

  void failed(RuntimeException cause) {
    failure = cause;
    follows = List.of();
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
