package dev.feedstore.server.internal;

import com.google.protobuf.ByteString;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.proto.WireMapping;
import dev.feedstore.proto.v1.BlockBatch;
import dev.feedstore.proto.v1.CaughtUp;
import dev.feedstore.proto.v1.Heartbeat;
import dev.feedstore.proto.v1.WatchEvent;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One Watch stream: history after the cursor from storage, a {@code caught_up} event, then live
 * blocks from the space's {@link SpaceTail}, with heartbeats while idle.
 *
 * <p>The stream holds no queue. Its only progress is {@code scanned}: every block of the scope at
 * or below it has been sent. Each step reads what follows {@code scanned} — from the tail's recent
 * blocks when they reach back that far, otherwise from one storage snapshot — and sends it, and
 * only while gRPC says the call is ready, so a reader that stops reading costs one batch at most;
 * when it reads again the stream resumes from {@code scanned}. The stream registers with the tail
 * before its first read, and every commit signals it, so no block is missed at the boundary
 * between history and live, and none is sent twice.
 *
 * <p>Thread-safe. All sends run in one serialized drain on the watch executor (never a thread per
 * stream); other threads only set flags and {@link #signal} it.
 */
final class WatchStream implements SpaceTail.Watcher {
  /** Batches sent in one turn before the drain yields its thread to other streams. */
  private static final int BATCHES_PER_TURN = 8;

  private final String requestId;
  private final ResolvedRead read;
  private final PositionAuthority authority;
  private final ServerCallStreamObserver<WatchFrame> call;
  private final Executor executor;
  private final RateLimitedLog failures;
  private final Consumer<WatchStream> onRelease;
  private final int batchBlocks;
  private final long batchBytes;

  private final AtomicInteger wip = new AtomicInteger();
  private final AtomicBoolean released = new AtomicBoolean();
  private volatile Status ending;
  /** Heartbeat ticks not yet handled by the drain. */
  private final AtomicInteger ticks = new AtomicInteger();

  // Confined to the drain.
  private long scanned;
  private long knownMax;
  private boolean historyStarted;
  private boolean caughtUpSent;
  private boolean firstEventSent;
  private boolean sentSinceHeartbeat;
  private Optional<BlockKey> cursorBlock = Optional.empty();
  private OptionalLong cursorChain = OptionalLong.empty();

  WatchStream(String requestId, ResolvedRead read, PositionAuthority authority,
      ServerCallStreamObserver<WatchFrame> call, Executor executor, RateLimitedLog failures,
      Consumer<WatchStream> onRelease) {
    this.requestId = requestId;
    this.read = read;
    this.authority = authority;
    this.call = call;
    this.executor = executor;
    this.failures = failures;
    this.onRelease = onRelease;
    this.batchBlocks = authority.settings().watchBatchBlocks();
    this.batchBytes = authority.settings().watchBatchBytes();
    this.scanned = read.cursor().value();
  }

  /** Hooks the stream to its call and its space's tail and starts it; call from the RPC handler. */
  void start() {
    call.setOnCancelHandler(this::release);
    call.setOnReadyHandler(this::signal);
    read.space().tail().register(this);
    signal();
  }

  Optional<String> subscriptionId() {
    return read.subscriptionId();
  }

  ResolvedRead read() {
    return read;
  }

  /** Ends the stream with {@code status} (the first ending wins), from any thread. */
  void end(Status status) {
    if (ending == null) {
      ending = status;
    }
    signal();
  }

  /** A heartbeat interval passed: send one if the stream is live and sent nothing since. */
  void heartbeatTick() {
    ticks.incrementAndGet();
    signal();
  }

  /** Schedules the drain unless it is scheduled or running; then it runs once more. */
  @Override
  public void signal() {
    if (wip.getAndIncrement() != 0) {
      return;
    }
    try {
      executor.execute(this::drain);
    } catch (RejectedExecutionException e) {
      release();
    }
  }

  private void drain() {
    int missed = 1;
    do {
      try {
        step();
      } catch (RuntimeException e) {
        fail(e);
      }
      missed = wip.addAndGet(-missed);
    } while (missed != 0);
  }

  private void step() {
    if (released.get()) {
      return;
    }
    for (int i = 0; i < BATCHES_PER_TURN; i++) {
      Status end = ending;
      if (end != null) {
        finish(end);
        return;
      }
      if (!call.isReady() || !sendNext()) {
        return; // the ready handler or the next commit signals again
      }
    }
    signal(); // more may be due: come back after other streams had a turn
  }

  /** Sends the next event if one is due; false when there is nothing to send now. */
  private boolean sendNext() {
    if (!historyStarted) {
      historyStarted = true;
      Page page = authority.readPage(read.space().spaceId(), read.scope(), read.cursor(), batchBlocks, batchBytes,
          read.cursor().isAssigned());
      cursorBlock = page.cursorBlock();
      cursorChain = page.cursorChain();
      sendPage(page);
      return true;
    }
    SpaceTail tail = read.space().tail();
    long committed = tail.committed();
    knownMax = Math.max(knownMax, committed);
    if (scanned < committed) {
      SpaceTail.Slice slice = tail.read(scanned, batchBlocks, batchBytes);
      if (slice.behind() || slice.entries().isEmpty()) {
        sendPage(authority.readPage(read.space().spaceId(), read.scope(), Position.of(scanned), batchBlocks, batchBytes,
            false));
        return true;
      }
      sendEntries(slice.entries());
      return true;
    }
    if (!caughtUpSent) {
      caughtUpSent = true;
      send(event().setCaughtUp(CaughtUp.getDefaultInstance()));
      return true;
    }
    int elapsed = ticks.getAndSet(0);
    if (elapsed > 0) {
      // Idle for a whole interval: nothing sent since the previous tick, or several ticks passed
      // before this drain ran (then at least one whole interval had nothing sent).
      if (elapsed > 1 || !sentSinceHeartbeat) {
        send(event().setHeartbeat(Heartbeat.getDefaultInstance()));
      }
      sentSinceHeartbeat = false;
    }
    return false;
  }

  private void sendPage(Page page) {
    knownMax = Math.max(knownMax, page.maxPosition().value());
    scanned = page.scannedTo(scanned);
    if (page.blocks().isEmpty()) {
      return;
    }
    BlockBatch.Builder batch = BlockBatch.newBuilder();
    for (Block block : page.blocks()) {
      batch.addBlocks(WireMapping.toWire(block));
    }
    page.namespaces().forEach((feed, ns) -> batch.putFeedNamespaces(feed.value(), ns.value()));
    WatchEvent.Builder event = event().setBlocks(batch);
    page.lastChain().ifPresent(event::setLastChain);
    send(event);
  }

  /** Sends live blocks from their shared encoding ({@link WatchFrame}). */
  private void sendEntries(List<TailEntry> entries) {
    Scope scope = read.scope();
    List<ByteString> blocks = new ArrayList<>(entries.size());
    Set<FeedId> named = new HashSet<>();
    List<ByteString> namespaces = new ArrayList<>();
    OptionalLong lastChain = OptionalLong.empty();
    for (TailEntry entry : entries) {
      if (scope.covers(entry.feedId(), entry.namespace())) {
        blocks.add(entry.blockField());
        lastChain = entry.chain();
        if (!entry.namespaceField().isEmpty() && named.add(entry.feedId())) {
          namespaces.add(entry.namespaceField());
        }
      }
    }
    scanned = entries.get(entries.size() - 1).position();
    if (blocks.isEmpty()) {
      return;
    }
    blocks.addAll(namespaces);
    WatchEvent.Builder event = event();
    lastChain.ifPresent(event::setLastChain);
    WatchEvent head = event.build();
    firstEventSent = true;
    sentSinceHeartbeat = true;
    call.onNext(WatchFrame.withBatch(head, blocks));
  }

  private WatchEvent.Builder event() {
    WatchEvent.Builder event = WatchEvent.newBuilder()
        .setRequestId(requestId)
        .setServerToken(read.space().token().value())
        .setMaxPosition(knownMax);
    if (!firstEventSent) {
      cursorBlock.ifPresent(key -> event.setCursorBlock(WireMapping.toWire(key)));
      cursorChain.ifPresent(event::setCursorChain);
    }
    return event;
  }

  private void send(WatchEvent.Builder event) {
    firstEventSent = true;
    sentSinceHeartbeat = !event.hasHeartbeat();
    call.onNext(WatchFrame.of(event.build()));
  }

  private void fail(RuntimeException failure) {
    if (released.get()) {
      return; // cancelled while sending: nothing to report to
    }
    Status status = Failures.toStatus(failure).getStatus();
    if (!Failures.isRejection(status.getCode())) {
      failures.log("Watch " + read.space().spaceId() + " (request_id '" + requestId + "') failed", failure);
    }
    finish(status);
  }

  private void finish(Status status) {
    try {
      if (status.isOk()) {
        call.onCompleted();
      } else {
        call.onError(status.asRuntimeException());
      }
    } catch (RuntimeException e) {
      // The call was cancelled meanwhile; there is no one left to tell.
    }
    release();
  }

  /** Unregisters from the tail and gives back the stream's permits; idempotent. */
  private void release() {
    if (released.compareAndSet(false, true)) {
      read.space().tail().unregister(this);
      onRelease.accept(this);
    }
  }
}
