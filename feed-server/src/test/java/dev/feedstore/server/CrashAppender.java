package dev.feedstore.server;

import com.google.protobuf.ByteString;
import dev.feedstore.core.FeedId;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.AppendResponse;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A client of the crash test: appends batches of the sizes it is given (blocks of 0 to 2 KiB, each
 * block naming its predecessor) to its own feeds and a shared one, as actor {@code actor}, one call
 * at a time, and records what the server acknowledged. A batch whose call failed is in doubt: it is
 * kept and sent again, unchanged, until acknowledged (an identical re-append returns the stored
 * positions). Before every call it passes the {@link Gate}, which the test closes around a crash.
 *
 * <p>Runs on its own thread; the maps and counters are read by the test thread.
 */
final class CrashAppender implements Runnable {
  /** Closed by the test while it kills the server and checks the database; appenders wait at it. */
  static final class Gate {
    private boolean open = true;

    synchronized void close() {
      open = false;
    }

    synchronized void open() {
      open = true;
      notifyAll();
    }

    synchronized void pass() throws InterruptedException {
      while (!open) {
        wait();
      }
    }
  }

  /** Batch sizes of a few writers with large and small pushes. */
  static final int[] MIXED_BATCHES = {1, 1, 2, 3, 5, 10, 20, 50, 100, 500};
  /** Batch sizes of many writers each appending a block or two per call. */
  static final int[] SMALL_BATCHES = {1, 2, 3};

  final String actor;
  /** Every block the server acknowledged, by key ("feed/actor/sequence"), with its position. */
  final Map<String, Block> acknowledged = new ConcurrentHashMap<>();
  /** Every batch whose call failed at least once, in the order of failure. */
  final List<List<Block>> inDoubt = new CopyOnWriteArrayList<>();
  final AtomicLong acknowledgedAppends = new AtomicLong();
  final AtomicLong failedCalls = new AtomicLong();
  private final List<FeedId> feeds;
  private final ManagedChannel channel;
  private final Gate gate;
  private final Random random;
  private final int[] batchSizes;
  private final Map<FeedId, Long> nextSequence = new HashMap<>();
  private volatile boolean stop;

  CrashAppender(String actor, List<FeedId> feeds, ManagedChannel channel, Gate gate, long seed, int[] batchSizes) {
    this.actor = actor;
    this.feeds = feeds;
    this.channel = channel;
    this.gate = gate;
    this.random = new Random(seed);
    this.batchSizes = batchSizes;
  }

  static String key(Block block) {
    return block.getFeedId() + "/" + block.getActorId() + "/" + block.getSequence();
  }

  /** Asks the appender to end after its current call (or when the gate opens). */
  void stop() {
    stop = true;
  }

  @Override
  public void run() {
    List<Block> pending = null;
    boolean failedBefore = false;
    try {
      while (!stop) {
        gate.pass();
        if (stop) {
          return;
        }
        if (pending == null) {
          pending = nextBatch();
          failedBefore = false;
        }
        try {
          AppendResponse response = FeedSyncGrpc.newBlockingStub(channel).withWaitForReady()
              .withDeadlineAfter(10, TimeUnit.SECONDS)
              .append(AppendRequest.newBuilder().setRequestId(actor).setSpaceId(CrashIT.SPACE).addAllBlocks(pending).build());
          for (int i = 0; i < pending.size(); i++) {
            acknowledged.put(key(pending.get(i)), pending.get(i).toBuilder().setPosition(response.getPositions(i)).build());
          }
          acknowledgedAppends.incrementAndGet();
          pending = null;
        } catch (StatusRuntimeException e) {
          failedCalls.incrementAndGet();
          if (!failedBefore) {
            inDoubt.add(pending);
            failedBefore = true;
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private List<Block> nextBatch() {
    FeedId feed = feeds.get(random.nextInt(feeds.size()));
    int size = batchSizes[random.nextInt(batchSizes.length)];
    List<Block> batch = new ArrayList<>(size);
    long sequence = nextSequence.getOrDefault(feed, 0L);
    for (int i = 0; i < size; i++, sequence++) {
      byte[] data = new byte[random.nextInt(2049)];
      random.nextBytes(data);
      Block.Builder block = Block.newBuilder().setFeedId(feed.value()).setActorId(actor).setSequence(sequence)
          .setTimestamp(1_767_225_600_000L + random.nextInt(1_000_000)).setData(ByteString.copyFrom(data));
      if (sequence > 0) {
        block.setPrevActorId(actor).setPrevSequence(sequence - 1);
      }
      batch.add(block.build());
    }
    nextSequence.put(feed, sequence);
    return batch;
  }
}
