package dev.feedstore.server.internal.streams;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.AuthorityTransaction;
import dev.feedstore.core.store.StreamRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Reads a stream's content in a transaction. A stream's content is its segments in order: for a
 * fork, its source's content up to the position it was forked at (recursively), then its own
 * feed's blocks, which all lie above that position (they were appended later), up to the stream's
 * close: a block stored in its feed after the close (by a server that let one in) is never read.
 * Stateless and thread-safe; the transaction is the caller's.
 */
final class StreamReader {
  /** The blocks of {@code feed} at or below {@code upTo}. */
  record Segment(FeedId feed, long upTo) {}

  /** What {@link #after} read. */
  record Read(List<Block> blocks, boolean more) {}

  private final SpaceId space;

  StreamReader(SpaceId space) {
    this.space = space;
  }

  SpaceId space() {
    return space;
  }

  /** The segments of the stream's content, in order. */
  List<Segment> segments(AuthorityTransaction tx, StreamRecord stream) {
    List<Segment> segments = new ArrayList<>();
    collect(tx, stream, Long.MAX_VALUE, segments);
    return segments;
  }

  private void collect(AuthorityTransaction tx, StreamRecord stream, long upTo, List<Segment> into) {
    if (stream.forkOf().isPresent()) {
      StreamRecord source = tx.streams().get(stream.forkOf().getAsLong()).orElseThrow(() ->
          new IllegalStateException("stream " + stream.name() + " names a source record the store does not hold"));
      collect(tx, source, Math.min(upTo, stream.basePosition()), into);
    }
    into.add(new Segment(stream.feedId(), Math.min(upTo, end(stream))));
  }

  /** Where the stream's own content ends: its close, or nowhere yet. Blocks stored after a close are no part of it. */
  private static long end(StreamRecord stream) {
    return stream.closedPosition().orElse(Long.MAX_VALUE);
  }

  /**
   * The stream's tail: where it was closed; else the position of its own last block, or where it
   * began, or when retention removed its own last blocks, the last position removed (an offset it
   * gave may be that high).
   */
  long tail(AuthorityTransaction tx, StreamRecord stream) {
    if (stream.isClosed()) {
      return end(stream);
    }
    return Math.max(Math.max(stream.basePosition(), tx.streams().lastPosition(space, stream.feedId()).orElse(0)),
        tx.streams().removedUpTo(space, stream.feedId()));
  }

  /**
   * How far retention removed the stream's content: the highest position of a block of its content
   * that is gone (0 when none is). A read after a lower offset would skip data; a read after it or
   * a higher one misses nothing, however far the space's floor is.
   */
  long removed(AuthorityTransaction tx, StreamRecord stream) {
    long removed = 0;
    for (Segment segment : segments(tx, stream)) {
      removed = Math.max(removed, Math.min(segment.upTo(), tx.streams().removedUpTo(space, segment.feed())));
    }
    return removed;
  }

  /** The last block of the stream's own feed, if it has one. */
  Optional<Block> lastOwnBlock(AuthorityTransaction tx, StreamRecord stream) {
    OptionalLong last = tx.streams().lastPosition(space, stream.feedId());
    return last.isPresent() ? tx.blocks().atPosition(space, Position.of(last.getAsLong())) : Optional.empty();
  }

  /**
   * The stream's blocks after position {@code after}: at most {@code maxBlocks}, and no more than
   * {@code maxBytes} of data unless one block alone is larger (one always goes).
   */
  Read after(AuthorityTransaction tx, StreamRecord stream, long after, int maxBlocks, long maxBytes) {
    List<Block> blocks = new ArrayList<>();
    long bytes = 0;
    for (Segment segment : segments(tx, stream)) {
      if (segment.upTo() <= after) {
        continue;
      }
      long cursor = blocks.isEmpty() ? after : blocks.get(blocks.size() - 1).position().value();
      int want = Math.max(1, maxBlocks - blocks.size() + 1);
      for (Block block : tx.blocks().after(space, new Scope.Selection(Set.of(segment.feed()), Set.of()),
          Position.of(cursor), want)) {
        if (block.position().value() > segment.upTo()) {
          break;
        }
        if (blocks.size() >= maxBlocks || (!blocks.isEmpty() && bytes + block.data().size() > maxBytes)) {
          return new Read(blocks, true);
        }
        blocks.add(block);
        bytes += block.data().size();
      }
    }
    return new Read(blocks, false);
  }
}
