package dev.feedstore.server.internal.streams;

import static dev.feedstore.server.settings.ServerSettings.BLOCK_BYTES;
import static dev.feedstore.server.settings.ServerSettings.FEEDS_PER_SPACE;
import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.HTTP_IDLE_TIMEOUT_MS;
import static dev.feedstore.server.settings.ServerSettings.QUERY_LIMIT;
import static dev.feedstore.server.settings.ServerSettings.RESPONSE_BYTES;
import static dev.feedstore.server.settings.ServerSettings.STREAMS_LONG_POLL_MS;
import static dev.feedstore.server.settings.ServerSettings.STREAMS_SPACE;
import static dev.feedstore.server.settings.ServerSettings.STREAMS_SSE_MS;

import dev.feedstore.core.Block;
import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.StreamName;
import dev.feedstore.server.internal.access.Caller;
import dev.feedstore.server.internal.authority.ReadRequest;
import dev.feedstore.server.internal.authority.ScopeRequest;
import dev.feedstore.server.internal.core.ServerCore;
import dev.feedstore.server.internal.errors.ShuttingDownException;
import dev.feedstore.server.internal.http.HttpExchange;
import dev.feedstore.server.internal.http.SseWriter;
import dev.feedstore.server.internal.http.Json;
import dev.feedstore.server.internal.http.RequestBody;
import dev.feedstore.server.internal.live.LiveFollower;
import dev.feedstore.server.internal.live.LiveSink;
import dev.feedstore.server.internal.live.LiveSinkAfter;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Fields;

/**
 * The Durable Streams protocol under {@code /v1/stream/{name}}: PUT creates (or forks), POST
 * appends and closes, GET reads (catch-up, {@code live=long-poll}, {@code live=sse}), HEAD tells the
 * tail, DELETE deletes ({@link DurableStreams} does the work). Every answer carries {@code
 * X-Content-Type-Options: nosniff} and {@code Cross-Origin-Resource-Policy: cross-origin}; errors
 * are JSON {@code {code, message}}. Access, per-principal limits and metrics are the API's, on the
 * streams' space ({@link StreamsProtocol}). Live reads are the live follower's streams ({@link StreamLongPoll}, {@link
 * StreamSseSink}) and count under the watch limits. Thread-safe.
 */
final class HttpStreams {
  private static final long NOT_CLOSED = Long.MIN_VALUE;
  private final ServerCore core;
  private final DurableStreams streams;
  private final StreamCursor cursors;

  /** The protocol over {@code core}'s authority, in the streams' space ({@code streams-space}). */
  HttpStreams(ServerCore core) {
    this.core = core;
    this.streams = new DurableStreams(core.authority(), SpaceId.of(core.settings().get(STREAMS_SPACE)), core.clock(),
        core.settings().get(FEEDS_PER_SPACE));
    this.cursors = new StreamCursor(core.clock());
  }

  /** Serves one request whose caller may use the streams' space; runs on the request executor. */
  void serve(HttpExchange exchange, Caller caller, String rawName) {
    Response response = exchange.response();
    StreamName name;
    try {
      name = StreamName.of(rawName);
    } catch (InvalidValueException e) {
      throw StreamException.badRequest("stream name " + e.getMessage());
    }
    Request request = exchange.request();
    switch (request.getMethod()) {
      case "PUT", "POST" -> body(exchange, caller, name);
      case "GET" -> get(exchange, caller, name);
      case "HEAD" -> head(exchange, name);
      case "DELETE" -> {
        streams.delete(name);
        empty(exchange, 204);
      }
      default -> {
        response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD, POST, PUT, DELETE");
        throw new StreamException(405, "method " + RateLimitedLog.clip(request.getMethod()) + " is not one of"
            + " GET, HEAD, POST, PUT, DELETE");
      }
    }
  }

  private void body(HttpExchange exchange, Caller caller, StreamName name) {
    int max = core.settings().get(BLOCK_BYTES);
    RequestBody.read(exchange.request(), max, new RequestBody.Reader() {
      @Override
      public void whole(byte[] body) {
        dispatch(exchange, () -> written(exchange, caller, name, body));
      }

      @Override
      public void tooLarge(long seen) {
        dispatch(exchange, () -> fail(exchange, HttpStreams.tooLarge(seen, max)));
      }

      @Override
      public void failed(Throwable failure) {
        dispatch(exchange, () -> fail(exchange, StreamException.badRequest("the body did not arrive whole: "
            + RateLimitedLog.clip(String.valueOf(failure)))));
      }
    });
  }

  private static StreamException tooLarge(long size, int max) {
    return new StreamException(413, "the body has " + size + " bytes; block-bytes limit is " + max
        + " (send less per request, or raise the block-bytes setting)");
  }

  private void dispatch(HttpExchange exchange, Runnable work) {
    try {
      core.requestExecutor().execute(() -> {
        try {
          work.run();
        } catch (RuntimeException e) {
          fail(exchange, e);
        }
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      exchange.fail(new ShuttingDownException());
    }
  }

  private void written(HttpExchange exchange, Caller caller, StreamName name, byte[] body) {
    Request request = exchange.request();
    var headers = request.getHeaders();
    Optional<StreamContent> content = Optional.ofNullable(headers.get(HttpHeader.CONTENT_TYPE))
        .filter(type -> !type.isBlank()).map(StreamContent::new);
    boolean close = "true".equalsIgnoreCase(headers.get("Stream-Closed"));
    core.principalLimits().admitAppend(caller.principal(), body.length);
    Response response = exchange.response();
    if (request.getMethod().equals("PUT")) {
      DurableStreams.Created created = streams.create(name, StreamRequests.create(headers, content, close, body));
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, created.record().contentType());
      response.getHeaders().put("Stream-Next-Offset", created.tail().toString());
      if (created.record().isClosed()) {
        response.getHeaders().put("Stream-Closed", "true");
      }
      if (created.created()) {
        response.getHeaders().put(HttpHeader.LOCATION, request.getHttpURI().asString());
      }
      empty(exchange, created.created() ? 201 : 200);
      return;
    }
    if (body.length == 0 && !close) {
      throw StreamException.badRequest("an append needs a body (an empty one means nothing); to close the stream"
          + " send Stream-Closed: true");
    }
    if (body.length > 0 && content.isEmpty()) {
      throw StreamException.badRequest("an append needs a Content-Type, the stream's own");
    }
    StreamWrite write = new StreamWrite(content, body.length == 0 ? Optional.empty() : Optional.of(body), close,
        Optional.ofNullable(headers.get("Stream-Seq")), StreamRequests.producer(headers));
    DurableStreams.Written done = streams.write(name, write);
    if (done.appended()) {
      core.metrics().appended(1);
    }
    response.getHeaders().put("Stream-Next-Offset", done.tail().toString());
    if (done.record().isClosed()) {
      response.getHeaders().put("Stream-Closed", "true");
    }
    done.producer().ifPresent(mark -> {
      response.getHeaders().put("Producer-Epoch", Long.toString(mark.epoch()));
      response.getHeaders().put("Producer-Seq", Long.toString(mark.seq()));
    });
    empty(exchange, write.producer().isPresent() && done.appended() ? 200 : 204);
  }




  private void head(HttpExchange exchange, StreamName name) {
    StreamView view = streams.read(name, StreamStart.TAIL, 1, 0, false);
    Response response = exchange.response();
    metadata(response, view);
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    empty(exchange, 200);
  }

  private static void metadata(Response response, StreamView view) {
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, view.record().contentType());
    response.getHeaders().put("Stream-Next-Offset", view.tail().toString());
    view.record().ttlSeconds().ifPresent(ttl -> response.getHeaders().put("Stream-TTL", Long.toString(ttl)));
    view.record().expiresAtMillis().ifPresent(at ->
        response.getHeaders().put("Stream-Expires-At", Instant.ofEpochMilli(at).toString()));
    if (view.record().isClosed()) {
      response.getHeaders().put("Stream-Closed", "true");
    }
  }

  private void get(HttpExchange exchange, Caller caller, StreamName name) {
    Request request = exchange.request();
    Fields query = Request.extractQueryParameters(request);
    List<String> offsets = Optional.ofNullable(query.getValues("offset")).orElse(List.of());
    if (offsets.size() > 1) {
      throw StreamException.badRequest("offset must be given at most once, was given " + offsets.size() + " times");
    }
    String live = query.getValue("live");
    if (live != null && !live.equals("long-poll") && !live.equals("sse")) {
      throw StreamException.badRequest("live " + RateLimitedLog.clip(live) + " must be long-poll or sse");
    }
    if (live != null && offsets.isEmpty()) {
      throw StreamException.badRequest("live=" + live + " needs an offset (-1 for the beginning, now for the tail)");
    }
    String text = offsets.isEmpty() ? "-1" : offsets.get(0);
    StreamStart from = text.equals("-1") ? StreamStart.BEGINNING
        : text.equals("now") ? StreamStart.TAIL : StreamStart.after(StreamOffset.parse("offset", text));
    Optional<String> echoed = Optional.ofNullable(query.getValue("cursor"));
    StreamView view = streams.read(name, from, core.settings().get(QUERY_LIMIT),
        core.settings().get(RESPONSE_BYTES), true);
    if (live == null) {
      catchUp(exchange, view, from == StreamStart.TAIL, Optional.empty());
    } else if (live.equals("long-poll")) {
      longPoll(exchange, caller, name, view, echoed);
    } else {
      sse(exchange, caller, view, echoed);
    }
  }

  private void catchUp(HttpExchange exchange, StreamView view, boolean now, Optional<String> cursor) {
    Response response = exchange.response();
    metadata(response, view);
    response.getHeaders().put("Stream-Next-Offset", view.next().toString());
    if (!view.closedAtTail()) {
      response.getHeaders().remove("Stream-Closed");
    }
    if (view.upToDate()) {
      response.getHeaders().put("Stream-Up-To-Date", "true");
    }
    cursor.ifPresent(c -> response.getHeaders().put("Stream-Cursor", c));
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, now || view.upToDate() ? "no-store"
        : "private, max-age=60, stale-while-revalidate=300");
    if (!now) {
      String etag = "\"" + view.record().feedId().value() + ":" + view.blocks().stream().findFirst()
          .map(b -> b.position().value()).orElse(view.next().position()) + ":" + view.next()
          + (view.closedAtTail() ? ":closed" : "") + "\"";
      response.getHeaders().put(HttpHeader.ETAG, etag);
      if (etag.equals(exchange.request().getHeaders().get(HttpHeader.IF_NONE_MATCH))) {
        empty(exchange, 304);
        return;
      }
    }
    byte[] body = body(view.content(), view.blocks());
    exchange.ended("OK");
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
    response.write(true, ByteBuffer.wrap(body), exchange.callback());
  }

  private static byte[] body(StreamContent content, List<Block> blocks) {
    if (content.isJson()) {
      List<String> messages = new java.util.ArrayList<>();
      blocks.forEach(block -> messages.addAll(StreamJson.ofBlock(block.data().toStringUtf8())));
      return StreamEvents.bytes(StreamJson.block(messages));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    blocks.forEach(block -> out.writeBytes(block.data().toByteArray()));
    return out.toByteArray();
  }

  private void longPoll(HttpExchange exchange, Caller caller, StreamName name, StreamView view,
      Optional<String> echoed) {
    if (!view.blocks().isEmpty() || view.closedAtTail()) {
      answerPoll(exchange, view, echoed);
      return;
    }
    StreamOffset at = view.next();
    StreamLongPoll[] poll = new StreamLongPoll[1];
    poll[0] = new StreamLongPoll(exchange, () -> {
      try {
        answerPoll(exchange, streams.read(name, StreamStart.after(at), core.settings().get(QUERY_LIMIT),
            core.settings().get(RESPONSE_BYTES), false), echoed);
      } catch (RuntimeException e) {
        fail(exchange, e);
      }
    }, core.requestExecutor());
    AutoCloseable listening = streams.onClose(view.record(), position -> poll[0].fire());
    exchange.request().getConnectionMetaData().getConnection().getEndPoint().setIdleTimeout(
        core.settings().get(STREAMS_LONG_POLL_MS) + core.settings().get(HTTP_IDLE_TIMEOUT_MS));
    var timer = core.timers().schedule(poll[0]::fire, core.settings().get(STREAMS_LONG_POLL_MS), TimeUnit.MILLISECONDS);
    // The follower's sink stops the timer and the listener on every path (an answer, also one given
    // before the follower started; the client leaving; the stream ending). Nothing here hooks the
    // request itself: the timer may have completed it already.
    try {
      openFollower(exchange, caller, view, at, new LiveSinkAfter(poll[0], () -> stop(listening, timer)));
    } catch (RuntimeException e) {
      stop(listening, timer); // refused (a limit, a shutdown): answered with the refusal, never by the timer
      throw e;
    }
  }

  private static void stop(AutoCloseable listening, java.util.concurrent.Future<?> timer) {
    timer.cancel(false);
    unlisten(listening);
  }

  private static void unlisten(AutoCloseable listening) {
    try {
      listening.close();
    } catch (Exception e) {
      // removing a listener does not fail
    }
  }

  private void answerPoll(HttpExchange exchange, StreamView view, Optional<String> echoed) {
    String cursor = cursors.next(echoed);
    if (view.blocks().isEmpty()) {
      Response response = exchange.response();
      metadata(response, view);
      response.getHeaders().remove(HttpHeader.CONTENT_TYPE);
      response.getHeaders().put("Stream-Next-Offset", view.next().toString());
      response.getHeaders().put("Stream-Up-To-Date", "true");
      response.getHeaders().put("Stream-Cursor", cursor);
      response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
      if (!view.closedAtTail()) {
        response.getHeaders().remove("Stream-Closed");
      }
      empty(exchange, 204);
      return;
    }
    catchUp(exchange, view, false, Optional.of(cursor));
  }

  private void sse(HttpExchange exchange, Caller caller, StreamView view, Optional<String> echoed) {
    Response response = exchange.response();
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
    response.getHeaders().put("X-Accel-Buffering", "no");
    StreamContent content = view.content();
    if (!content.isText()) {
      response.getHeaders().put("Stream-SSE-Data-Encoding", "base64");
    }
    String cursor = cursors.next(echoed);
    StringBuilder opening = new StringBuilder();
    if (!view.blocks().isEmpty()) {
      opening.append(StreamEvents.blocks(content, view.blocks(), cursor, view.upToDate() && !view.closedAtTail()));
    }
    long reached = view.next().position();
    if (view.closedAtTail()) {
      opening.append(StreamEvents.closed(view.next()));
      exchange.ended("OK");
      SseWriter.Output events = exchange.events();
      events.write(true, ByteBuffer.wrap(StreamEvents.bytes(opening.toString())), events.completion());
      return;
    }
    if (view.blocks().isEmpty()) {
      opening.append(StreamEvents.control(view.next(), cursor, true));
    }
    if (!view.upToDate() && reached < view.record().basePosition()) {
      // The rest is the source's: the client reads on from the last offset it was sent.
      exchange.ended("OK");
      SseWriter.Output events = exchange.events();
      events.write(true, ByteBuffer.wrap(StreamEvents.bytes(opening.toString())), events.completion());
      return;
    }
    StreamName name = StreamName.of(view.record().name());
    StreamSseSink sink = new StreamSseSink(exchange.events(), content, opening.toString(), reached, cursors.ofResponse(cursor),
        after -> streams.read(name, StreamStart.after(new StreamOffset(after)), core.settings().get(QUERY_LIMIT),
            core.settings().get(RESPONSE_BYTES), false).blocks());
    exchange.request().getConnectionMetaData().getConnection().getEndPoint().setIdleTimeout(
        core.settings().get(HEARTBEAT_MS) + core.settings().get(HTTP_IDLE_TIMEOUT_MS));
    // A close may come before the follower exists: it is kept and delivered once the follower does.
    AtomicReference<LiveFollower> follower = new AtomicReference<>();
    AtomicReference<Future<?>> lifetime = new AtomicReference<>();
    AtomicLong closedAt = new AtomicLong(NOT_CLOSED);
    AutoCloseable listening = streams.onClose(view.record(), position -> {
      closedAt.set(position);
      LiveFollower f = follower.get();
      if (f != null) {
        f.end(new StreamSseSink.Closed(position));
      }
    });
    try {
      follower.set(openFollower(exchange, caller, view, new StreamOffset(reached),
          new LiveSinkAfter(sink, () -> {
            unlisten(listening);
            Optional.ofNullable(lifetime.get()).ifPresent(timer -> timer.cancel(false));
          })));
    } catch (RuntimeException e) {
      unlisten(listening);
      throw e;
    }
    if (closedAt.get() != NOT_CLOSED) {
      follower.get().end(new StreamSseSink.Closed(closedAt.get()));
    }
    // Ended about once a minute, as the protocol asks, so that a CDN collapses the readers that come back.
    lifetime.set(core.timers().schedule(() -> follower.get().end(new StreamSseSink.Recycled()),
        SseLifetime.millis(core.settings().get(STREAMS_SSE_MS), ThreadLocalRandom.current().nextDouble()),
        TimeUnit.MILLISECONDS));
  }

  /**
   * Opens a live follower of the stream's own feed after {@code at}, writing to {@code sink}. It
   * starts at the space's floor when {@code at} is below it: the stream holds nothing in between
   * ({@link StreamView#floor}), and a follower below the floor would be refused as compacted.
   */
  private LiveFollower openFollower(HttpExchange exchange, Caller caller, StreamView view, StreamOffset at,
      LiveSink sink) {
    ReadRequest read = new ReadRequest(streams.space(), ScopeRequest.of(Scope.feeds(Set.of(view.record().feedId()))),
        Position.of(Math.max(at.position(), view.floor())), 0, Optional.empty());
    Request request = exchange.request();
    return core.watches().openFollower(read, sink,
        "http " + Request.getRemoteAddr(request) + ":" + Request.getRemotePort(request), caller);
  }

  /** Answers {@code status} without a body. */
  private static void empty(HttpExchange exchange, int status) {
    exchange.ended(status < 400 ? "OK" : "UNKNOWN");
    Response response = exchange.response();
    response.setStatus(status);
    if (status != 304 && status != 204) {
      response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 0);
    }
    response.write(true, null, exchange.callback());
  }

  /** Answers a failure: the protocol's refusal, or the API's mapping of any other. */
  void fail(HttpExchange exchange, Throwable failure) {
    Response response = exchange.response();
    if (failure instanceof StreamException refusal) {
      refusal.headers().forEach((header, value) -> response.getHeaders().put(header, value));
      exchange.ended(refusal.code());
      if (refusal.status() < 500) {
        core.rejections().log("rejected " + exchange.method() + " of a stream over HTTP from "
            + Request.getRemoteAddr(exchange.request()) + ": " + refusal.getMessage(), null);
      }
      exchange.refuse(refusal.status(), Json.object()
          .field("code", refusal.code()).field("message", refusal.getMessage()).end());
      return;
    }
    if (failure instanceof UnsupportedOperationException unsupported) {
      exchange.fail(new IllegalStateException("this server's store keeps no Durable Streams: "
          + unsupported.getMessage()));
      return;
    }
    exchange.fail(failure);
  }
}
