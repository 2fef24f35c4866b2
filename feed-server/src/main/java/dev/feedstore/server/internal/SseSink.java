package dev.feedstore.server.internal;

import dev.feedstore.core.CursorCompactedException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable;

/**
 * A Server-Sent Events response as a {@link LiveSink}: each block an event whose {@code id} is its
 * position; {@code event: caught-up} after history; heartbeats as comments; the space's token in
 * an {@code event: server-token} first, preceded by {@code event: reset} when the client resumed
 * with a token of another store (it is sent everything from the start: it must drop what it held);
 * and at the end {@code event: auth} (the token expired or was refused: reconnect with a fresh one)
 * or {@code event: error}, each with {@code {"code","message"}}, or {@code event: compacted} with
 * {@code {"code","message","floor"}} when a compaction removed the stream's next blocks (resume
 * from the floor, knowing what lay below it is gone), before the response closes.
 *
 * <p>Flow control: one write at a time; the sink is ready again when Jetty has written the last
 * one to the socket, so a reader that stops reading holds one event batch in the server, never a
 * queue. Thread-safe: events come from the follower's drain, write completions from Jetty's threads.
 */
final class SseSink implements LiveSink {
  private final HttpExchange exchange;
  private final Response response;
  private final Optional<String> expectedToken;
  private final Object lock = new Object();
  /** Guarded by lock: a write is in flight. */
  private boolean writing;
  /** Guarded by lock: the stream has ended (or is ending): no event is taken. */
  private boolean ended;
  /** Guarded by lock: the last event, waiting for the write in flight. */
  private ByteBuffer pendingEnd;
  /** Guarded by lock: the response's callback was handed to the last write, or failed. */
  private boolean completed;
  private volatile Runnable onReady = () -> {};
  private volatile Runnable onGone = () -> {};
  /** Confined to the follower's drain. */
  private boolean opened;

  /**
   * @param expectedToken the server token the client's cursor came from, if it said
   */
  SseSink(HttpExchange exchange, Optional<String> expectedToken) {
    this.exchange = exchange;
    this.response = exchange.response();
    this.expectedToken = expectedToken;
  }

  @Override
  public void start(Runnable ready, Runnable gone) {
    onReady = ready;
    onGone = gone;
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream; charset=utf-8");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
    response.getHeaders().put("X-Accel-Buffering", "no"); // proxies such as nginx pass events at once
    exchange.request().addFailureListener(this::gone);
  }

  @Override
  public boolean isReady() {
    synchronized (lock) {
      return !writing && !ended;
    }
  }

  @Override
  public void history(Head head, Page page) {
    StringBuilder text = opening(head);
    page.blocks().forEach(block -> text.append(SseEvent.block(block,
        Optional.ofNullable(page.namespaces().get(block.feedId())))));
    write(bytes(text));
  }

  @Override
  public void live(Head head, List<TailEntry> entries) {
    byte[] opening = bytes(opening(head)).array();
    int size = opening.length;
    byte[][] events = new byte[entries.size()][];
    for (int i = 0; i < events.length; i++) {
      events[i] = entries.get(i).event().of(entries.get(i));
      size += events[i].length;
    }
    ByteBuffer buffer = ByteBuffer.allocate(size).put(opening);
    for (byte[] event : events) {
      buffer.put(event);
    }
    write(buffer.flip());
  }

  @Override
  public void caughtUp(Head head) {
    write(bytes(opening(head).append(SseEvent.named("caught-up",
        Json.object().field("max_position", head.maxPosition()).end()))));
  }

  @Override
  public void heartbeat(Head head) {
    write(bytes(opening(head).append(SseEvent.comment("heartbeat max_position=" + head.maxPosition()))));
  }

  @Override
  public void end(RuntimeException reason) {
    Refusal refusal = Refusal.of(reason);
    String name = refusal.code() == ErrorCode.UNAUTHENTICATED ? "auth" : "error";
    Json body = Json.object().field("code", refusal.code().name()).field("message", refusal.message());
    if (reason instanceof CursorCompactedException compacted) {
      name = "compacted";
      body.field("floor", compacted.floor().value());
    }
    ByteBuffer last = bytes(new StringBuilder(SseEvent.named(name, body.end())));
    exchange.ended(refusal.code().name());
    synchronized (lock) {
      if (ended) {
        return;
      }
      ended = true;
      if (writing) {
        pendingEnd = last;
        return;
      }
      completed = true;
    }
    response.write(true, last, exchange.callback());
  }

  /** The token events that open the stream, before its first event; empty after. */
  private StringBuilder opening(Head head) {
    StringBuilder text = new StringBuilder();
    if (opened) {
      return text;
    }
    opened = true;
    String token = head.token().value();
    if (expectedToken.isPresent() && !expectedToken.get().equals(token)) {
      text.append(SseEvent.named("reset", Json.object().field("server_token", token)
          .field("message", "the cursor came from another store (server token " + RateLimitedLog.clip(expectedToken.get())
              + "): drop what you hold of this space; the stream starts over from position 0")
          .end()));
    }
    text.append(SseEvent.named("server-token", Json.object().field("server_token", token)
        .field("max_position", head.maxPosition()).end()));
    return text;
  }

  private void write(ByteBuffer buffer) {
    synchronized (lock) {
      if (ended) {
        return;
      }
      writing = true;
    }
    exchange.eventSent();
    response.write(false, buffer, Callback.from(Invocable.InvocationType.NON_BLOCKING, this::written, this::failed));
  }

  private void written() {
    ByteBuffer last;
    synchronized (lock) {
      writing = false;
      last = pendingEnd;
      pendingEnd = null;
      completed |= last != null;
    }
    if (last != null) {
      response.write(true, last, exchange.callback());
    } else {
      onReady.run();
    }
  }

  private void failed(Throwable failure) {
    synchronized (lock) {
      writing = false;
      pendingEnd = null;
    }
    gone(failure);
  }

  /**
   * The client went away (a failed write, a closed connection, an idle timeout): the stream is
   * released, and the response's callback fails unless the last write has it already.
   */
  private void gone(Throwable failure) {
    boolean fail;
    synchronized (lock) {
      ended = true;
      fail = !completed;
      completed = true;
    }
    exchange.ended("CANCELLED");
    onGone.run();
    if (fail) {
      exchange.callback().failed(failure);
    }
  }

  private static ByteBuffer bytes(StringBuilder text) {
    return ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8));
  }
}
