package dev.feedstore.server.internal.queries;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.query.DocumentId;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.ParsedBlock;
import dev.feedstore.core.store.AuthorityTransaction;
import dev.feedstore.server.internal.authority.PositionAuthority;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What live queries read from storage, each read from one snapshot of the store: the current version
 * of every document of a query ({@link #load}), and the blocks committed after a position, up to the
 * end of a commit ({@link #committedAfter}). Only blocks above the space's floor are read: a query
 * sees retained history only. Stateless and thread-safe; every method blocks on the store.
 */
final class QueryStorage {
  /** Blocks fetched from the store at a time. */
  static final int CHUNK = 1_000;

  private final PositionAuthority authority;
  private final Clock clock;
  private final BlockParses parses;

  QueryStorage(PositionAuthority authority, Clock clock, BlockParses parses) {
    this.authority = authority;
    this.clock = clock;
    this.parses = parses;
  }

  /**
   * The current versions of a query's documents as the store holds them.
   *
   * @param position the position the versions are as of
   * @param floor the space's floor in the snapshot read
   * @param highest the space's highest position in that snapshot (at least {@code position} when
   *     the read found what it was asked for)
   * @param current the last version inside the scope of every document, at most one each
   */
  record Loaded(long position, long floor, long highest, List<ParsedBlock> current) {}

  /** Reads the current version of every document of {@code query} now. */
  Loaded load(LiveQuery query) {
    return load(query, Long.MAX_VALUE);
  }

  /**
   * Reads the current version of every document of {@code query} as of {@code upTo} (the space's
   * highest position when that is lower): the versions at or below it that are above the floor.
   */
  Loaded load(LiveQuery query, long upTo) {
    SpaceId space = query.space();
    return authority.read(tx -> {
      Position floor = tx.blocks().floor(space).position();
      long highest = tx.blocks().maxPosition(space).value();
      long end = Math.min(upTo, highest);
      Namespaces namespaces = new Namespaces(tx, space);
      Map<DocumentId, ParsedBlock> last = new HashMap<>();
      long evaluatedAt = clock.millis();
      Position after = floor;
      while (after.value() < end) {
        List<Block> fetched = tx.blocks().between(space, query.scope(), after, Position.of(end + 1), CHUNK);
        namespaces.add(fetched);
        for (Block block : fetched) {
          ParsedBlock version = parses.of(block, namespaces.of(block), evaluatedAt);
          query.documentOf(version).ifPresent(id -> last.put(id, version));
        }
        if (fetched.size() < CHUNK) {
          break;
        }
        after = fetched.get(fetched.size() - 1).position();
      }
      return new Loaded(Math.max(end, floor.value()), floor.value(), highest, List.copyOf(last.values()));
    });
  }

  /**
   * Blocks committed in the space after a position.
   *
   * @param blocks every block of the space after the position and up to {@code end}, in position
   *     order (those compaction removed excepted)
   * @param end where they end: the end of a commit, never inside one
   * @param floor the space's floor in the snapshot read
   */
  record Committed(List<ParsedBlock> blocks, long end, long floor) {}

  /**
   * Reads the blocks committed after {@code after}, about {@code maxBlocks} of them: up to the end of
   * the commit the last one belongs to. A commit's blocks share their receive time, so the blocks
   * end at a commit where the receive time changes, or at the snapshot's highest position; a commit
   * larger than {@code maxBlocks} is read whole.
   */
  Committed committedAfter(SpaceId space, long after, int maxBlocks) {
    return authority.read(tx -> {
      long max = tx.blocks().maxPosition(space).value();
      long floor = tx.blocks().floor(space).position().value();
      Namespaces namespaces = new Namespaces(tx, space);
      List<Block> blocks = new ArrayList<>();
      Position cursor = Position.of(after);
      long end = max;
      while (true) {
        List<Block> fetched = tx.blocks().between(space, Scope.WHOLE_SPACE, cursor, Position.of(max + 1), CHUNK);
        blocks.addAll(fetched);
        if (fetched.size() < CHUNK) {
          break;
        }
        cursor = fetched.get(fetched.size() - 1).position();
        int cut = blocks.size() >= maxBlocks ? commitEnd(blocks, maxBlocks - 1) : -1;
        if (cut >= 0) {
          blocks.subList(cut + 1, blocks.size()).clear();
          end = blocks.get(cut).position().value();
          break;
        }
      }
      namespaces.add(blocks);
      long evaluatedAt = clock.millis();
      List<ParsedBlock> parsed = new ArrayList<>(blocks.size());
      for (Block block : blocks) {
        parsed.add(parses.of(block, namespaces.of(block), evaluatedAt));
      }
      return new Committed(parsed, Math.max(after, end), floor);
    });
  }

  /**
   * The index of the last block of a commit, at or after {@code from}, that another block follows
   * in {@code blocks} (the next one was received at another time); -1 when there is none yet.
   */
  private static int commitEnd(List<Block> blocks, int from) {
    for (int i = Math.max(0, from); i + 1 < blocks.size(); i++) {
      OptionalLong here = blocks.get(i).receivedAt();
      OptionalLong next = blocks.get(i + 1).receivedAt();
      if (here.isPresent() && next.isPresent() && here.getAsLong() != next.getAsLong()) {
        return i;
      }
    }
    return -1;
  }

  /** The namespaces of the feeds of the blocks read in one transaction, each looked up once. */
  private static final class Namespaces {
    private final AuthorityTransaction tx;
    private final SpaceId space;
    private final Map<FeedId, Optional<Namespace>> known = new HashMap<>();

    Namespaces(AuthorityTransaction tx, SpaceId space) {
      this.tx = tx;
      this.space = space;
    }

    void add(List<Block> blocks) {
      Set<FeedId> unknown = new HashSet<>();
      for (Block block : blocks) {
        if (!known.containsKey(block.feedId())) {
          unknown.add(block.feedId());
        }
      }
      if (unknown.isEmpty()) {
        return;
      }
      Map<FeedId, Optional<Namespace>> found = tx.feeds().namespaces(space, unknown);
      for (FeedId feed : unknown) {
        known.put(feed, found.getOrDefault(feed, Optional.empty()));
      }
    }

    Optional<Namespace> of(Block block) {
      return known.get(block.feedId());
    }
  }
}
