package dev.feedstore.examples.partial;

import dev.feedstore.client.FeedUpdate;
import dev.feedstore.client.Registration;
import dev.feedstore.client.Replica;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Listens to a replica's feeds in a scope and prints every positioned block the first time it
 * arrives: {@code [dashboard] temperature  21.5 C  (position 7)}. Thread-safe: the replica's
 * listener thread records, any thread reads.
 */
final class Follower implements AutoCloseable {
  private final String name;
  private final PrintWriter out;
  private final Function<Block, String> describe;
  private final Set<BlockKey> seen = new HashSet<>();
  private final List<Block> received = new ArrayList<>();
  private final Registration registration;

  Follower(String name, Replica replica, SpaceId space, Scope scope, PrintWriter out, Function<Block, String> describe) {
    this.name = name;
    this.out = out;
    this.describe = describe;
    this.registration = replica.listen(space, scope, this::onUpdate);
  }

  /** The blocks received so far, in the order they arrived. */
  synchronized List<Block> received() {
    return List.copyOf(received);
  }

  private void onUpdate(FeedUpdate update) {
    List<Block> fresh = new ArrayList<>();
    synchronized (this) {
      for (Map.Entry<?, List<Block>> feed : update.feeds().entrySet()) {
        for (Block block : feed.getValue()) {
          if (block.isPositioned() && seen.add(block.key())) {
            received.add(block);
            fresh.add(block);
          }
        }
      }
    }
    fresh.sort(java.util.Comparator.comparing(Block::position));
    synchronized (out) {
      for (Block block : fresh) {
        out.printf("  [%-9s] received %-28s (position %d)%n", name, describe.apply(block), block.position().value());
      }
      out.flush();
    }
  }

  @Override
  public void close() {
    registration.close();
  }
}
