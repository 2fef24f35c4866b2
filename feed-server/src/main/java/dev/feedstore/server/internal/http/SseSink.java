package dev.feedstore.server.internal.http;

import dev.feedstore.core.CursorCompactedException;
import dev.feedstore.server.internal.errors.ErrorCode;
import dev.feedstore.server.internal.errors.HistoryRolledBackException;
import dev.feedstore.server.internal.errors.CallRefusal;
import dev.feedstore.server.internal.live.LiveSink;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import dev.feedstore.server.internal.spaces.Encodings;
import dev.feedstore.server.internal.spaces.Page;
import dev.feedstore.server.internal.spaces.TailEntry;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;

/**
 * A Server-Sent Events response as a {@link LiveSink}: each block an event whose {@code id} is its
 * position, the events of a batch or a page encoded once for every stream that sends them ({@link
 * SseEvent}); {@code event: caught-up} after history; heartbeats as comments; the space's token in
 * an {@code event: server-token} first, preceded by {@code event: reset} when the client resumed
 * with a token of another store (it is sent everything from the start: it must drop what it held);
 * and at the end {@code event: auth} (the token expired or was refused: reconnect with a fresh one)
 * or {@code event: error}, each with {@code {"code","message"}}, or {@code event: compacted} with
 * {@code {"code","message","floor"}} when a compaction removed the stream's next blocks (resume
 * from the floor, knowing what lay below it is gone), or {@code event: rolled-back} with {@code
 * {"code","message","max_position"}} when the space's history went back under the stream (a
 * restore: what the client holds above {@code max_position} is gone, and what it holds below may
 * have been replaced), before the response closes.
 *
 * <p>Flow control is {@link SseWriter}'s: a reader that stops reading holds one event batch in the
 * server, never a queue. Thread-safe: events come from the follower's drain, write completions
 * from Jetty's threads.
 */
final class SseSink implements LiveSink {
  private final SseWriter.Output output;
  private final Runnable startResponse;
  private final Optional<String> expectedToken;
  private final SseWriter writer;
  /** Confined to the follower's drain. */
  private boolean opened;

  /**
   * @param expectedToken the server token the client's cursor came from, if it said
   */
  SseSink(HttpExchange exchange, Optional<String> expectedToken) {
    this(exchange.events(), () -> startResponse(exchange.response()), expectedToken);
  }

  /**
   * An event stream written to {@code output}, whose response {@code startResponse} starts (its
   * status and headers) when the stream starts.
   */
  SseSink(SseWriter.Output output, Runnable startResponse, Optional<String> expectedToken) {
    this.output = output;
    this.startResponse = startResponse;
    this.expectedToken = expectedToken;
    this.writer = new SseWriter(output);
  }

  /** Answers 200 with an event stream that proxies pass on at once and nothing caches. */
  static void startResponse(Response response) {
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream; charset=utf-8");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
    response.getHeaders().put("X-Accel-Buffering", "no"); // proxies such as nginx pass events at once
  }

  @Override
  public void start(Runnable ready, Runnable gone) {
    startResponse.run();
    writer.start(ready, gone);
  }

  @Override
  public boolean isReady() {
    return writer.isReady();
  }

  @Override
  public void history(Head head, Page page) {
    write(opening(head), SseEvent.page(page));
  }

  @Override
  public void sharedHistory(Head head, Page page, Encodings encodings) {
    write(opening(head), SseEvent.page(page, encodings));
  }

  @Override
  public void live(Head head, List<TailEntry> entries) {
    write(opening(head), SseEvent.live(entries));
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
    CallRefusal refusal = CallRefusal.of(reason);
    String name = refusal.code() == ErrorCode.UNAUTHENTICATED ? "auth" : "error";
    Json body = Json.object().field("code", refusal.code().name()).field("message", refusal.message());
    if (reason instanceof CursorCompactedException compacted) {
      name = "compacted";
      body.field("floor", compacted.floor().value());
    } else if (reason instanceof HistoryRolledBackException rolledBack) {
      name = "rolled-back";
      body.field("max_position", rolledBack.highest());
    }
    ByteBuffer last = bytes(new StringBuilder(SseEvent.named(name, body.end())));
    output.ended(refusal.code().name());
    writer.end(last);
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
    writer.write(buffer);
  }

  /** Writes {@code events}, which other streams may send too, after this stream's {@code opening} events. */
  private void write(StringBuilder opening, byte[] events) {
    writer.write(opening.toString(), events);
  }

  private static ByteBuffer bytes(StringBuilder text) {
    return ByteBuffer.wrap(SseEvent.bytes(text.toString()));
  }
}
