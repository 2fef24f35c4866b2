package dev.feedstore.server.testing;

import io.grpc.netty.shaded.io.netty.buffer.AbstractByteBuf;
import io.grpc.netty.shaded.io.netty.buffer.ByteBuf;
import io.grpc.netty.shaded.io.netty.buffer.PooledByteBufAllocator;
import io.grpc.netty.shaded.io.netty.util.ResourceLeakDetector;
import io.grpc.netty.shaded.io.netty.util.internal.logging.InternalLoggerFactory;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Netty's leak detection of the buffers of gRPC's transport (the copy of Netty shaded into
 * grpc-netty-shaded) at {@code paranoid} level while open: every buffer allocated from then on is
 * tracked, and {@link #collect} forces a garbage collection and returns the reports of buffers that
 * were collected without being released. Netty still logs each report ({@code ResourceLeakDetector
 * - LEAK}). Closing restores the level it found. One at a time; thread-safe otherwise.
 *
 * <p>The buffers' detector is created when Netty's buffer classes load, which in a test JVM that
 * ran other tests first has happened long before, so a factory installed now would never be used:
 * the reports are taken from that detector through its leak listener, reached by reflection. The
 * detector reports each trace once in a JVM's life; its memory of them is cleared when this opens
 * and at each {@link #collect}, so a leak whose trace an earlier test (or an earlier collection)
 * reported is reported again.
 */
public final class NettyLeaks implements AutoCloseable {
  private static final Duration COLLECTION_TIMEOUT = Duration.ofSeconds(60);

  private final ResourceLeakDetector.Level before = ResourceLeakDetector.getLevel();
  private final ResourceLeakDetector<ByteBuf> detector = bufferDetector();
  /** The traces the detector reported already, which it never reports again. */
  private final Set<String> reported = reportedTraces(detector);
  /** Guarded by itself. */
  private final List<String> reports = new ArrayList<>();

  private NettyLeaks() {
    if (!InternalLoggerFactory.getInstance(ResourceLeakDetector.class).isErrorEnabled()) {
      // The detector reports (and calls its listener) only when its logger logs errors.
      throw new AssertionError("Netty's leak reports are off: the logger of ResourceLeakDetector does not log errors");
    }
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    reported.clear();
    detector.setLeakListener((type, records) -> {
      synchronized (reports) {
        reports.add(records);
      }
    });
  }

  /** Tracks every buffer from now on until closed. */
  public static NettyLeaks paranoid() {
    return new NettyLeaks();
  }

  /**
   * Forces a full garbage collection, waits until the references it cleared are queued, lets the
   * detector read them, and returns the reports (each the buffer's access records, where it was
   * created last) made since the previous call. Blocks up to a minute.
   */
  public List<String> collect() {
    // Two collections, each waited for until a weak reference it cleared is queued: the queue of
    // references cleared by the first is wholly handed out before the second's canary comes.
    awaitCollection();
    awaitCollection();
    // The detector reads its queue when it tracks a new buffer.
    PooledByteBufAllocator.DEFAULT.directBuffer(1).release();
    synchronized (reports) {
      List<String> found = List.copyOf(reports);
      reports.clear();
      reported.clear();
      return found;
    }
  }

  private static void awaitCollection() {
    ReferenceQueue<Object> queue = new ReferenceQueue<>();
    WeakReference<Object> canary = new WeakReference<>(new Object(), queue);
    long deadline = System.nanoTime() + COLLECTION_TIMEOUT.toNanos();
    try {
      for (Reference<?> cleared = null; cleared != canary; ) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError("a forced garbage collection did not clear a weak reference within "
              + COLLECTION_TIMEOUT + " (is -XX:+DisableExplicitGC set?)");
        }
        System.gc();
        cleared = queue.remove(1000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted waiting for a garbage collection", e);
    }
  }

  /** The buffers' detector: the shaded Netty's {@code AbstractByteBuf.leakDetector}. */
  private static ResourceLeakDetector<ByteBuf> bufferDetector() {
    return hiddenField(AbstractByteBuf.class, "leakDetector", null);
  }

  /** The traces {@code detector} reported already. */
  private static Set<String> reportedTraces(ResourceLeakDetector<ByteBuf> detector) {
    return hiddenField(ResourceLeakDetector.class, "reportedLeaks", detector);
  }

  /** The value of a field the shaded Netty keeps to itself, in {@code owner} (null for a static field). */
  @SuppressWarnings("unchecked")
  private static <T> T hiddenField(Class<?> type, String name, Object owner) {
    try {
      Field field = type.getDeclaredField(name);
      field.setAccessible(true);
      return (T) field.get(owner);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("the shaded Netty keeps no " + type.getSimpleName() + "." + name + ", where this"
          + " grpc-netty-shaded version was known to keep it", e);
    }
  }

  @Override
  public void close() {
    detector.setLeakListener(null);
    ResourceLeakDetector.setLevel(before);
  }
}
