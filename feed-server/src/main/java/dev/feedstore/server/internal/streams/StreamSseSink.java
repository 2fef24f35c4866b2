package dev.feedstore.server.internal.streams;

import dev.feedstore.core.Block;
import dev.feedstore.server.internal.errors.CallRefusal;
import dev.feedstore.server.internal.http.HttpExchange;
import dev.feedstore.server.internal.http.SseWriter;
import dev.feedstore.server.internal.live.LiveSink;
import dev.feedstore.server.internal.spaces.Encodings;
import dev.feedstore.server.internal.spaces.Page;
import dev.feedstore.server.internal.spaces.TailEntry;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * A Durable Stream's {@code live=sse} response as a {@link LiveSink} of the live follower, which
 * follows the stream's own feed from the offset its catch-up reached: the catch-up's events go
 * first ({@code opening}), then each batch the follower sends as a data and a control event, encoded
 * once for the streams that send the same ({@link StreamEvents#live}, {@link StreamEvents#page}).
 * When the stream closes ({@link #end} with {@link Closed}) the blocks up to the close are read
 * from the store and sent, then the last control event, and the response ends; at the end of its
 * lifetime ({@link Recycled}) it ends after what it holds.
 *
 * <p>Flow control is {@link SseWriter}'s. Thread-safe: events come from the follower's drain, write
 * completions from Jetty's threads.
 */
final class StreamSseSink implements LiveSink {
  /** The stream closed at {@code position} (or was deleted: -1); ends the response. */
  static final class Closed extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final long position;

    Closed(long position) {
      super("the stream closed", null, false, false);
      this.position = position;
    }
  }

  /**
   * The response was open for its lifetime ({@code streams-sse-ms}, {@link SseLifetime}); ends it
   * cleanly, and the client reads on from the last offset it got.
   */
  static final class Recycled extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Recycled() {
      super("the event stream was open for its lifetime", null, false, false);
    }
  }

  private final SseWriter.Output output;
  private final SseWriter writer;
  private final StreamContent content;
  private final Supplier<String> cursor;
  private final LongFunction<List<Block>> blocksAfter;
  /** Confined to the follower's drain. */
  private String opening;
  /** Confined to the follower's drain: the offset of the last block sent. */
  private long last;

  /**
   * @param output the response the events are written to ({@link HttpExchange#events})
   * @param opening the catch-up's events, written first
   * @param from the position the catch-up reached
   * @param cursor the {@code streamCursor} of the next control event
   * @param blocksAfter the stream's own blocks after a position, read from the store, for a close
   */
  StreamSseSink(SseWriter.Output output, StreamContent content, String opening, long from, Supplier<String> cursor,
      LongFunction<List<Block>> blocksAfter) {
    this.output = output;
    this.writer = new SseWriter(output);
    this.content = content;
    this.opening = opening;
    this.last = from;
    this.cursor = cursor;
    this.blocksAfter = blocksAfter;
  }

  @Override
  public void start(Runnable ready, Runnable gone) {
    writer.start(ready, gone);
  }

  @Override
  public boolean isReady() {
    return writer.isReady();
  }

  @Override
  public void history(Head head, Page page) {
    send(page.blocks(), !page.hasMore());
  }

  @Override
  public void sharedHistory(Head head, Page page, Encodings encodings) {
    last = page.blocks().get(page.blocks().size() - 1).position().value();
    writer.write(take(), StreamEvents.page(content, page, encodings, cursor.get(), !page.hasMore()));
  }

  @Override
  public void live(Head head, List<TailEntry> entries) {
    last = entries.get(entries.size() - 1).position();
    writer.write(take(), StreamEvents.live(content, entries, cursor.get()));
  }

  private void send(List<Block> blocks, boolean upToDate) {
    last = blocks.get(blocks.size() - 1).position().value();
    write(take() + StreamEvents.blocks(content, blocks, cursor.get(), upToDate));
  }

  @Override
  public void caughtUp(Head head) {
    String text = take();
    if (!text.isEmpty()) {
      write(text);
    }
  }

  @Override
  public void heartbeat(Head head) {
    write(take() + ":\n\n");
  }

  @Override
  public void end(RuntimeException reason) {
    StringBuilder text = new StringBuilder(take());
    if (reason instanceof Closed closed && closed.position >= 0) {
      try {
        List<Block> rest = blocksAfter.apply(last).stream()
            .filter(block -> block.position().value() <= closed.position).toList();
        if (!rest.isEmpty()) {
          text.append(StreamEvents.blocks(content, rest, cursor.get(), false));
        }
        text.append(StreamEvents.closed(new StreamOffset(Math.max(last, closed.position))));
      } catch (StreamException gone) {
        // Deleted meanwhile, or retention took what followed: the client, reading again from the
        // last offset it got, is told so. The response ends without the close.
      }
    }
    output.ended(reason instanceof Closed || reason instanceof Recycled ? "OK" : CallRefusal.of(reason).code().name());
    writer.end(ByteBuffer.wrap(StreamEvents.bytes(text.toString())));
  }

  private String take() {
    String text = opening;
    opening = "";
    return text;
  }

  private void write(String text) {
    writer.write(ByteBuffer.wrap(StreamEvents.bytes(text)));
  }
}
