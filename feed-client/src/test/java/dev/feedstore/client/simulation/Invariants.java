package dev.feedstore.client.simulation;

import dev.feedstore.client.internal.ClientAccess;
import dev.feedstore.client.Replica;
import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.FeedInfo;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Replication;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.FeedStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The properties every schedule must end with, after healing and settling: among them, every replica
 * holds every positioned block with the authority's receive time. With compactions: every
 * replica holds every block of its policy range above the authority's floor, or reports
 * historyUnavailable; no block below the floor is silently missing; and no compaction took a block
 * a durable consumer had not acknowledged, so each was delivered every block of its scope.
 */
final class Invariants {
  private Invariants() {}

  static List<String> check(World world) {
    List<String> violations = new ArrayList<>(world.limitViolations);
    violations.addAll(world.holdViolations);
    // 6. Every live query's result is its query from scratch over its replica's file, and replicas
    // holding the same blocks hold the same results.
    world.queries.check(world.replicas, "settling");
    world.queries.checkAgreement(world.replicas, world.feeds);
    violations.addAll(world.queries.violations);
    SpaceId space = World.SPACE;
    FeedStore authority = world.authorityStore();
    List<Block> all = authority.read(tx -> tx.blocks().after(space, Scope.WHOLE_SPACE, Position.NONE, Integer.MAX_VALUE));
    long floor = world.floor().value();

    // 3. The authority's positions above its floor are unique, dense and strictly increasing; every block has one.
    for (int i = 0; i < all.size(); i++) {
      if (all.get(i).position().value() != floor + i + 1) {
        violations.add("authority: position " + (floor + i + 1) + " holds " + all.get(i));
        break;
      }
    }
    consumersSawEverything(world, all, violations);
    long unpositioned = authority.read(tx -> tx.blocks().countUnpositioned(space, Scope.WHOLE_SPACE));
    if (unpositioned > 0) {
      violations.add("authority: " + unpositioned + " unpositioned blocks");
    }
    Map<String, Block> byData = new HashMap<>();
    for (Block block : all) {
      Block twin = byData.put(block.data().toStringUtf8(), block);
      if (twin != null) {
        violations.add("authority holds '" + block.data().toStringUtf8() + "' twice: " + twin.key() + " and " + block.key());
      }
    }

    for (int r = 0; r < world.replicas.length; r++) {
      Replica replica = world.replicas[r];
      // Nothing local is ever dropped.
      Set<String> now = world.data(r);
      Set<String> lost = new HashSet<>(world.held.get(r));
      lost.removeAll(now);
      if (!lost.isEmpty()) {
        violations.add("r" + r + " dropped blocks it held: " + lost);
      }
      for (int f = 0; f < world.feeds.length; f++) {
        FeedId feed = world.feeds[f];
        Optional<Long> from = replicatedFrom(replica, space, feed);
        if (from.isEmpty()) {
          continue;
        }
        List<Block> local = replica.read(space, feed);
        // 1. Every block a replica holds in a feed it replicates is on the authority, at the same place.
        for (Block block : local) {
          Block there = byData.get(block.data().toStringUtf8());
          if (!block.isPositioned()) {
            violations.add("r" + r + ": " + block + " is still unpositioned");
          } else if (there == null && block.position().value() <= floor) {
            // compacted on the authority: the replica keeps it
          } else if (there == null) {
            violations.add("r" + r + ": " + block + " is not on the authority");
          } else if (!there.equals(block)) {
            violations.add("r" + r + ": holds " + block + ", the authority " + there);
          } else if (!there.receivedAt().equals(block.receivedAt())) {
            violations.add("r" + r + ": holds " + block + " received " + block.receivedAt() + ", the authority "
                + there.receivedAt());
          }
        }
        // 2. Every block of the feed the policy covers is on the replica.
        Set<String> localKeys = new HashSet<>();
        local.forEach(b -> localKeys.add(b.key() + "@" + b.position()));
        for (Block block : all) {
          if (block.feedId().equals(feed) && block.position().value() >= from.get()
              && !localKeys.contains(block.key() + "@" + block.position())) {
            violations.add("r" + r + " (from " + from.get() + ") misses " + block);
          }
        }
        // 4. A compacted block of the policy's range that the replica does not hold is reported.
        Set<String> localData = new HashSet<>();
        local.forEach(b -> localData.add(b.data().toStringUtf8()));
        Optional<Position> gap = ClientAccess.get().sync(replica, space).historyUnavailable();
        for (Block removed : world.compacted) {
          long position = removed.position().value();
          if (removed.feedId().equals(feed) && position <= floor && position >= from.get()
              && !localData.contains(removed.data().toStringUtf8())
              && (gap.isEmpty() || gap.get().value() < position)) {
            violations.add("r" + r + " (from " + from.get() + ") silently misses compacted " + removed
                + " (history unavailable: " + gap + ")");
          }
        }
      }
    }
    return violations;
  }

  /** 5. Each durable consumer was delivered every block of its scope the authority holds. */
  private static void consumersSawEverything(World world, List<Block> all, List<String> violations) {
    world.drainConsumers();
    for (int c = 0; c < world.consumers.length; c++) {
      for (Block block : all) {
        int feed = java.util.Arrays.asList(world.feeds).indexOf(block.feedId());
        String entry = DurableConsumer.entry(block.position().value(), block.feedId().value(),
            block.actorId().value(), block.key().sequence().value());
        if (World.namespaceOf(feed).equals(World.SHARED) && !world.consumers[c].delivered.contains(entry)) {
          violations.add("durable consumer c" + c + " was never delivered " + block);
        }
      }
    }
  }

  /** Where the replica's policy starts the feed, or empty if it does not replicate it. */
  private static Optional<Long> replicatedFrom(Replica replica, SpaceId space, FeedId feed) {
    Replication policy = replica.replication(space, feed);
    if (policy instanceof Replication.From from) {
      return Optional.of(from.from().value());
    }
    if (policy instanceof Replication.Latest) {
      return Optional.of(Long.MAX_VALUE);
    }
    Set<Namespace> namespaces = replica.replicatedNamespaces(space);
    boolean byNamespace = replica.feeds(space).stream()
        .filter(info -> info.feedId().equals(feed))
        .map(FeedInfo::namespace)
        .anyMatch(ns -> ns.isPresent() && namespaces.contains(ns.get()));
    return byNamespace ? Optional.of(0L) : Optional.empty();
  }
}
