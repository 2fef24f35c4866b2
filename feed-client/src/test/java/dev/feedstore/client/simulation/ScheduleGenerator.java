package dev.feedstore.client.simulation;

import dev.feedstore.core.store.StorageFaultException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Draws a random schedule from a seed; the same seed gives the same schedule. */
final class ScheduleGenerator {
  static final int REPLICAS = 3;
  static final int FEEDS = 3;
  /** Sizes of large blocks: under every limit of {@link World#LIMITS}, or over some. */
  private static final int[] LARGE_BLOCKS = {1_500, 3_000, 5_000, 7_000};

  private ScheduleGenerator() {}

  static List<Op> generate(long seed, int length) {
    return generate(seed, length, false, 3, 8);
  }

  /**
   * Like {@link #generate(long, int)}, with many more compactions and durable consumers' reads
   * (drawn from their own stream): replicas fall below the floor often.
   */
  static List<Op> generateWithRetention(long seed, int length) {
    return generate(seed, length, false, 12, 30);
  }

  /**
   * Like {@link #generate(long, int)}, with operations that restart the authority with other limits
   * ({@link Op.SetAuthorityLimits}) and append blocks that some of those limits refuse ({@link
   * Op.AppendLarge}), drawn from a stream of their own between the usual ones.
   */
  static List<Op> generateWithLimits(long seed, int length) {
    return generate(seed, length, true, 3, 8);
  }

  /**
   * @param compactPercent how often (of 100) a compaction comes between two usual operations
   * @param consumePercent how often a durable consumer's read does
   */
  private static List<Op> generate(long seed, int length, boolean withLimits, int compactPercent,
      int consumePercent) {
    Random random = new Random(seed);
    Random limits = new Random(seed * 31 + 17);
    // Compactions and durable consumers come from a stream of their own, between the usual operations.
    Random retention = new Random(seed * 37 + 11);
    List<Op> ops = new ArrayList<>();
    int appended = 0;
    for (int replica = 0; replica < REPLICAS; replica++) {
      ops.add(new Op.Connect(replica));
    }
    while (ops.size() < length) {
      int replica = random.nextInt(REPLICAS);
      int limitsRoll = withLimits ? limits.nextInt(100) : 100;
      if (limitsRoll < 3) {
        ops.add(new Op.SetAuthorityLimits(limits.nextInt(World.LIMITS.size()), limits.nextBoolean()));
      } else if (limitsRoll < 8) {
        ops.add(new Op.AppendLarge(limits.nextInt(REPLICAS), limits.nextInt(FEEDS), "s" + seed + "-" + (appended++),
            LARGE_BLOCKS[limits.nextInt(LARGE_BLOCKS.length)]));
      }
      int retentionRoll = retention.nextInt(100);
      if (retentionRoll < compactPercent) {
        ops.add(new Op.Compact(retention.nextInt(3)));
      } else if (retentionRoll < compactPercent + consumePercent) {
        ops.add(new Op.Consume(retention.nextInt(World.CONSUMERS)));
      }
      int roll = random.nextInt(1000);
      if (roll < 220) {
        ops.add(new Op.Append(replica, random.nextInt(FEEDS), "s" + seed + "-" + (appended++)));
      } else if (roll < 250) {
        ops.add(new Op.StorageFault(replica, random.nextInt(10) < 4,
            random.nextInt(10) < 7 ? StorageFaultException.Kind.FULL : StorageFaultException.Kind.IO,
            random.nextInt(FEEDS), "s" + seed + "-" + (appended++)));
      } else if (roll < 420) {
        ops.add(new Op.Push(replica, fault(random)));
      } else if (roll < 590) {
        ops.add(new Op.Pull(replica, fault(random)));
      } else if (roll < 640) {
        ops.add(new Op.Connect(replica));
      } else if (roll < 680) {
        ops.add(new Op.Disconnect(replica));
      } else if (roll < 730) {
        ops.add(new Op.SnapshotAuthority());
      } else if (roll < 765) {
        ops.add(new Op.RollbackAuthority(random.nextInt(8)));
      } else if (roll < 780) {
        ops.add(new Op.SwapAuthority());
      } else if (roll < 805) {
        ops.add(new Op.CrashAuthority());
      } else if (roll < 820) {
        ops.add(new Op.StopAuthority());
      } else if (roll < 850) {
        ops.add(new Op.StartAuthority());
      } else if (roll < 885) {
        ops.add(new Op.RestartReplica(replica));
      } else if (roll < 920) {
        ops.add(new Op.BackupReplica(replica));
      } else if (roll < 945) {
        ops.add(new Op.RestoreReplica(replica, random.nextInt(4)));
      } else {
        Op.PolicyKind[] kinds = Op.PolicyKind.values();
        ops.add(new Op.SetPolicy(replica, random.nextInt(FEEDS), kinds[random.nextInt(kinds.length)],
            random.nextInt(12)));
      }
    }
    return ops;
  }

  private static Fault fault(Random random) {
    int roll = random.nextInt(100);
    if (roll < 70) {
      return Fault.NONE;
    }
    if (roll < 80) {
      return Fault.FAIL_BEFORE_COMMIT;
    }
    if (roll < 90) {
      return Fault.FAIL_AFTER_COMMIT;
    }
    return Fault.DUPLICATE_REPLY;
  }
}
