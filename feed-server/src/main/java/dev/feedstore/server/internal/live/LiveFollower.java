package dev.feedstore.server.internal.live;

import static dev.feedstore.server.settings.ServerSettings.WATCH_BATCH_BLOCKS;
import static dev.feedstore.server.settings.ServerSettings.WATCH_BATCH_BYTES;

import dev.feedstore.core.BlockKey;
import dev.feedstore.core.CursorCompactedException;
import dev.feedstore.core.Position;
import dev.feedstore.server.internal.authority.PositionAuthority;
import dev.feedstore.server.internal.authority.ResolvedRead;
import dev.feedstore.server.internal.errors.HistoryRolledBackException;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import dev.feedstore.server.internal.spaces.Encodings;
import dev.feedstore.server.internal.spaces.Page;
import dev.feedstore.server.internal.spaces.SharedPages;
import dev.feedstore.server.internal.spaces.SpaceTail;
import dev.feedstore.server.internal.spaces.TailEntry;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * One live stream of blocks, whatever its transport: history after the cursor from storage, a
 * caught-up event, then live blocks from the space's {@link SpaceTail}, with heartbeats while idle,
 * all written to a {@link LiveSink}. gRPC Watch and Server-Sent Events are two sinks of this one
 * follower; how it sends (one drain, only while the transport is ready, in turns, heartbeats, its
 * end) is every live stream's ({@link LiveStream}).
 *
 * <p>The follower holds no queue. Its only progress is {@code scanned}: every block of the scope at
 * or below it has been sent. Each step reads what follows {@code scanned} — from the tail's recent
 * blocks when they reach back that far, otherwise from one storage snapshot — and sends it, so a
 * reader that stops reading costs one batch at most; when it reads again the stream resumes from
 * {@code scanned}. The follower registers with the tail before its first read, and every commit
 * signals it, so no block is missed at the boundary between history and live, and none is sent
 * twice.
 *
 * <p>Thread-safe. All sends run in its stream's drain; other threads only {@link #signal} it or end it.
 */
public final class LiveFollower implements SpaceTail.Watcher {
  private final ResolvedRead read;
  private final PositionAuthority authority;
  private final LiveSink sink;
  private final String principal;
  private final int batchBlocks;
  private final long batchBytes;
  private final LiveStream stream;
  /** Confined to the drain. */
  private final CoveredEntries coveredEntries;

  // Confined to the drain.
  private long scanned;
  private long knownMax;
  private boolean historyStarted;
  private boolean caughtUpSent;
  private boolean firstEventSent;
  private Optional<BlockKey> cursorBlock = Optional.empty();
  private OptionalLong cursorChain = OptionalLong.empty();
  /** The cursor the stream's start time resolved to, known from its first page on. */
  private OptionalLong startCursor = OptionalLong.empty();

  LiveFollower(ResolvedRead read, PositionAuthority authority, LiveSink sink, Executor executor,
      RateLimitedLog failures, String principal, Consumer<LiveFollower> onRelease) {
    this.read = read;
    this.authority = authority;
    this.sink = sink;
    this.principal = principal;
    this.batchBlocks = authority.settings().get(WATCH_BATCH_BLOCKS);
    this.batchBytes = authority.settings().get(WATCH_BATCH_BYTES);
    this.scanned = read.cursor().value();
    this.coveredEntries = new CoveredEntries(read.scope());
    this.stream = new LiveStream(sink, new LiveStream.Source() {
      @Override
      public boolean sendNext() {
        return LiveFollower.this.sendNext();
      }

      @Override
      public void heartbeat() {
        sink.heartbeat(head(OptionalLong.empty()));
        firstEventSent = true;
      }
    }, executor, failures, "live stream of space " + read.space().spaceId() + " for " + principal, () -> {
      read.space().tail().unregister(this);
      onRelease.accept(this);
    });
  }

  /**
   * Hooks the follower to its sink and its space's tail and starts it; call from the request's
   * handler. A client that leaves while it starts (the sink runs its gone hook from {@code start})
   * leaves it released and unregistered; when hooking fails, the follower is released and the
   * failure rethrown.
   */
  void start() {
    stream.hook();
    try {
      read.space().tail().register(this);
    } catch (RuntimeException | Error e) {
      stream.release();
      throw e;
    }
    if (stream.released()) {
      // Released before it registered, so that release had nothing to unregister.
      read.space().tail().unregister(this);
      return;
    }
    stream.schedule();
  }

  Optional<String> subscriptionId() {
    return read.subscriptionId();
  }

  ResolvedRead read() {
    return read;
  }

  /** The principal the stream counts against. */
  String principal() {
    return principal;
  }

  /** Ends the stream because of {@code reason} (the first ending wins), from any thread. */
  public void end(RuntimeException reason) {
    stream.end(reason);
  }

  /** A heartbeat interval passed: send one if the stream is live and sent nothing since. */
  void heartbeatTick() {
    stream.heartbeatTick();
  }

  /**
   * A commit of the space: schedules the drain, unless the sink was not ready when the drain last
   * looked (its ready hook schedules the drain, which then reads this commit too).
   */
  @Override
  public void signal() {
    stream.signal();
  }

  /**
   * The space's history went back under the stream (a restore): it ends, so that its client connects
   * again from its cursor and checks what it holds against the new history, instead of following a
   * history whose positions are handed out again ({@code scanned} and {@code knownMax} only grow).
   */
  @Override
  public void historyWentBack(long highest) {
    end(new HistoryRolledBackException(read.space().spaceId(), highest));
  }

  /** Sends the next event if one is due; false when there is nothing to send now. */
  private boolean sendNext() {
    if (!historyStarted) {
      historyStarted = true;
      PositionAuthority.StartPage start = authority.startPage(read, batchBlocks, batchBytes);
      Page page = start.page();
      scanned = start.cursor().value();
      startCursor = start.startCursor();
      cursorBlock = page.cursorBlock();
      cursorChain = page.cursorChain();
      sendPage(page);
      return true;
    }
    SpaceTail tail = read.space().tail();
    long committed = tail.committed();
    knownMax = Math.max(knownMax, committed);
    if (scanned < committed) {
      checkFloor();
      SpaceTail.Slice slice = tail.read(scanned, blocksToRead(committed), batchBytes);
      knownMax = Math.max(knownMax, slice.committed()); // streams that read the same slice send the same head
      if (slice.behind() || slice.entries().isEmpty()) {
        sendStored();
        return true;
      }
      sendEntries(slice.entries());
      return true;
    }
    if (!caughtUpSent) {
      caughtUpSent = true;
      sink.caughtUp(head(OptionalLong.empty()));
      sent();
      return true;
    }
    return false;
  }

  /**
   * Ends the stream when a compaction removed history after {@code scanned} (it only learned the new
   * floor): what follows may still be in memory (the tail, a kept page), but a stream below the floor
   * is told so, as a read from storage would tell it, whatever happens to be kept.
   */
  private void checkFloor() {
    long floor = read.space().floor();
    if (scanned > 0 && scanned < floor) {
      throw new CursorCompactedException(read.space().spaceId(), Position.of(scanned), Position.of(floor));
    }
  }

  /**
   * How many blocks to read from the tail after {@code scanned}: a whole batch, except that a stream
   * more than a batch behind reads up to the next multiple of the batch size only, so that streams
   * that fell behind at different points soon send the same batches and share their frames.
   */
  private int blocksToRead(long committed) {
    if (committed - scanned <= batchBlocks) {
      return batchBlocks;
    }
    return (int) (batchBlocks - Math.floorMod(scanned, (long) batchBlocks));
  }

  /**
   * Sends what follows {@code scanned} from storage. A stream takes the page of its scope that
   * starts at the multiple of the batch size below it, which the streams of the same scope behind in
   * the same stretch share ({@link SharedPages}), and sends its blocks after {@code scanned} (a part
   * of the page, encoded once for the streams behind at the same point); from there on it reads
   * pages that start where that one ended (for the whole space, at those multiples), shared too. A
   * stream alone in its space reads its own pages, which are not kept.
   */
  private void sendStored() {
    long after = scanned;
    if (read.space().tail().watcherCount() <= 1) {
      sendPage(readStored(after), null); // alone in its space: no stream to share a page with
      return;
    }
    long aligned = after - Math.floorMod(after, (long) batchBlocks);
    // Not from 0, which reads from the floor: that would skip history compacted past this stream.
    if (aligned > 0 && aligned < after) {
      SharedPages.Shared shared = alignedPage(aligned);
      Page page = shared == null ? null : shared.page();
      if (page != null && (!page.hasMore() || page.blocks().get(page.blocks().size() - 1).position().value() > after)) {
        SharedPages.Part part = shared.after(after);
        sendPage(part.page(), part.encodings());
        return;
      }
    }
    SharedPages.Shared own = read.space().tail().pages().page(read.scope(), after, batchBlocks, batchBytes,
        () -> readStored(after));
    sendPage(own.page(), own.encodings());
  }

  /** The shared page after {@code aligned}, or null when compaction removed what follows it. */
  private SharedPages.Shared alignedPage(long aligned) {
    try {
      return read.space().tail().pages().page(read.scope(), aligned, batchBlocks, batchBytes,
          () -> readStored(aligned));
    } catch (CursorCompactedException e) {
      return null; // this stream's own read says whether it is compacted past too
    }
  }

  private Page readStored(long after) {
    return authority.readPage(read.space().spaceId(), read.scope(), Position.of(after), batchBlocks, batchBytes,
        false);
  }

  private void sendPage(Page page) {
    sendPage(page, null);
  }

  /**
   * Sends a page read from storage; {@code encodings} holds what the transports encode from it when
   * other streams send it too, else null.
   */
  private void sendPage(Page page, Encodings encodings) {
    knownMax = Math.max(knownMax, page.maxPosition().value());
    read.space().raiseFloor(page.floor().value());
    scanned = page.scannedTo(scanned);
    if (page.blocks().isEmpty()) {
      return;
    }
    if (page.lastChain().isPresent()) {
      read.space().tail().sent(page.blocks().get(page.blocks().size() - 1).position().value(),
          page.lastChain().getAsLong());
    }
    if (encodings == null) {
      sink.history(head(page.lastChain()), page);
    } else {
      sink.sharedHistory(head(page.lastChain()), page, encodings);
    }
    sent();
  }

  /** Sends the live blocks of the scope among {@code entries}, from their shared encodings. */
  private void sendEntries(List<TailEntry> entries) {
    List<TailEntry> covered = coveredEntries.of(entries);
    scanned = entries.get(entries.size() - 1).position();
    if (covered.isEmpty()) {
      return;
    }
    sink.live(head(covered.get(covered.size() - 1).chain()), covered);
    sent();
  }

  /** The fields every event carries; the cursor's block and chain, and the start cursor, go with the first event only. */
  private LiveSink.Head head(OptionalLong lastChain) {
    return new LiveSink.Head(read.space().token(), knownMax,
        firstEventSent ? Optional.empty() : cursorBlock, firstEventSent ? OptionalLong.empty() : cursorChain,
        lastChain, read.space().floor(), firstEventSent ? OptionalLong.empty() : startCursor);
  }

  private void sent() {
    firstEventSent = true;
    stream.sent();
  }
}
