package dev.feedstore.cli;

import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.Iterator;
import java.util.Optional;

/**
 * Follows a Watch stream and prints its blocks and events until {@code count} blocks are printed
 * or the stream ends. With {@code reconnect}, a stream that ends with {@code UNAVAILABLE} (the server
 * stopped or restarted, or cannot be reached) is opened again, after a pause, after the last printed
 * position and with the server token seen so far; and
 *
 * <ul>
 *   <li>a server with another token (its store was replaced) answers from the start, which is
 *       said and printed;
 *   <li>a server whose highest position is below the last printed one (it was restored from a
 *       backup) is followed again from its highest position, so that the positions it hands out
 *       again are printed too.
 * </ul>
 *
 * <p>A durable tail is not this class's: {@link DurableTail} prints what the library's durable
 * consumer delivers. Not thread-safe.
 */
final class LiveTail {
  private static final Duration PAUSE = Duration.ofSeconds(1);

  private final AuthorityConnection authority;
  private final WatchRequest scope;
  private final Printer printer;
  private final Optional<Long> count;
  private final boolean heartbeats;
  private final boolean reconnect;
  private long cursor;
  private Optional<String> token = Optional.empty();
  private long printed;

  /**
   * @param scope the request's space and scope; the cursor and token are this class's
   */
  LiveTail(AuthorityConnection authority, WatchRequest scope, Printer printer, Optional<Long> count, boolean heartbeats,
      boolean reconnect) {
    this.authority = authority;
    this.scope = scope;
    this.printer = printer;
    this.count = count;
    this.heartbeats = heartbeats;
    this.reconnect = reconnect;
  }

  /**
   * Follows from {@code start}; returns when {@code count} blocks are printed.
   *
   * @throws StatusRuntimeException the status the stream ended with (other than a retried one)
   */
  void follow(long start) throws InterruptedException {
    cursor = start;
    while (true) {
      try {
        if (followOnce()) {
          return;
        }
      } catch (StatusRuntimeException e) {
        if (!reconnect || e.getStatus().getCode() != Status.Code.UNAVAILABLE) {
          throw e;
        }
        printer.remark("-- the stream ended (" + CommandFailures.describe(e.getStatus()) + "); reconnecting to resume after"
            + " position " + cursor);
        Thread.sleep(PAUSE.toMillis());
      }
    }
  }

  /** One stream: true when {@code count} blocks are printed, false to open another one. */
  private boolean followOnce() {
    WatchRequest.Builder request = scope.toBuilder().setCursor(cursor);
    token.ifPresent(request::setExpectedServerToken);
    try (AuthorityConnection.StreamCall<WatchEvent> call = authority.watch(request, reconnect)) {
      Iterator<WatchEvent> events = call.events();
      boolean first = true;
      while (events.hasNext()) {
        WatchEvent event = events.next();
        if (first && !checkFirst(event)) {
          return false;
        }
        first = false;
        token = Optional.of(event.getServerToken());
        if (print(event)) {
          return true;
        }
      }
    }
    throw new CliException("the server ended the stream without a status", FeedCtl.Exit.UNREACHABLE);
  }

  /** Tells what a reconnection found; false when the stream must start again from elsewhere. */
  private boolean checkFirst(WatchEvent event) {
    if (token.isEmpty()) {
      return true;
    }
    if (!token.get().equals(event.getServerToken())) {
      printer.remark("-- the server's store was replaced (its server token changed): printing the space from the start");
      cursor = 0;
      return true;
    }
    if (event.getMaxPosition() < cursor) {
      printer.remark("-- the server's highest position is " + event.getMaxPosition() + ", below " + cursor
          + ": it was restored from a backup; following again from position " + event.getMaxPosition());
      cursor = event.getMaxPosition();
      return false;
    }
    return true;
  }

  /** Prints an event; true when {@code count} blocks are printed. */
  private boolean print(WatchEvent event) {
    switch (event.getEventCase()) {
      case BLOCKS -> {
        for (Block block : event.getBlocks().getBlocksList()) {
          printer.block(scope.getSpaceId(), block,
              Optional.ofNullable(event.getBlocks().getFeedNamespacesMap().get(block.getFeedId())));
          cursor = block.getPosition();
          if (count.isPresent() && ++printed >= count.get()) {
            return true;
          }
        }
      }
      case CAUGHT_UP -> printer.caughtUp(event.getMaxPosition());
      case HEARTBEAT -> {
        if (heartbeats) {
          printer.heartbeat(event.getMaxPosition());
        }
      }
      default -> { }
    }
    return false;
  }
}
