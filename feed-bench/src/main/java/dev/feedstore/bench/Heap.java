package dev.feedstore.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * Heap figures of this JVM: the live heap after full collections, the peak of used heap (garbage
 * included), and the peak of the heap left after each collection (what the program really held).
 * Thread-safe.
 */
final class Heap {
  private static final AtomicLong peakAfterGc = new AtomicLong();
  private static volatile boolean listening;

  private Heap() {}

  /** Used heap after three requested full collections, in bytes. */
  static long usedAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return used();
  }

  static long used() {
    long used = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        used += pool.getUsage().getUsed();
      }
    }
    return used;
  }

  /** Starts the two peaks afresh. */
  static void resetPeaks() {
    listen();
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        pool.resetPeakUsage();
      }
    }
    peakAfterGc.set(used());
  }

  /** The highest used heap since {@link #resetPeaks}, garbage included (sum of the pools' peaks). */
  static long peakUsed() {
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    return peak;
  }

  /** The highest heap left after any collection since {@link #resetPeaks}. */
  static long peakAfterGc() {
    return peakAfterGc.get();
  }

  /** CPU time this process used so far, in nanoseconds (0 where the JVM cannot tell). */
  static long processCpuNanos() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
      return Math.max(0, os.getProcessCpuTime());
    }
    return 0;
  }

  static long max() {
    return Runtime.getRuntime().maxMemory();
  }

  private static synchronized void listen() {
    if (listening) {
      return;
    }
    listening = true;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener((notification, handback) -> {
          if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
            return;
          }
          GarbageCollectionNotificationInfo info =
              GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
          long after = 0;
          for (MemoryUsage usage : info.getGcInfo().getMemoryUsageAfterGc().values()) {
            after += usage.getUsed();
          }
          // Non-heap pools (metaspace, code cache) are in the map too; subtract them.
          for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() != MemoryType.HEAP) {
              MemoryUsage usage = info.getGcInfo().getMemoryUsageAfterGc().get(pool.getName());
              if (usage != null) {
                after -= usage.getUsed();
              }
            }
          }
          long value = after;
          peakAfterGc.accumulateAndGet(value, Math::max);
        }, null, null);
      }
    }
  }

  static double mib(long bytes) {
    return bytes / 1048576.0;
  }
}
