package dev.feedstore.server.internal.http;

import static dev.feedstore.server.settings.ServerSettings.HTTP_REFUSED_BODY_BYTES;
import static dev.feedstore.server.settings.ServerSettings.MAX_MESSAGE_BYTES;

import dev.feedstore.core.CursorCompactedException;
import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.LimitExceededException;
import dev.feedstore.core.store.StorageFaultException;
import dev.feedstore.server.internal.core.ServerCore;
import dev.feedstore.server.internal.errors.AppendConflictException;
import dev.feedstore.server.internal.errors.CallRefusal;
import dev.feedstore.server.internal.errors.ShuttingDownException;
import dev.feedstore.server.internal.errors.StreamClosedException;
import dev.feedstore.server.internal.errors.SubscriptionNotFoundException;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import dev.feedstore.server.internal.monitoring.ServerMetrics;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * One HTTP request of the API as it is answered: its JSON answer or error, and what {@link
 * ServerMetrics} counts of it, the same way as a gRPC call (by method and the code of its outcome).
 * Thread-safe: an answer may be written from any thread, once.
 */
public final class HttpExchange {
  private final Request request;
  private final Response response;
  private final Callback callback;
  private final ServerCore core;
  private final String space;
  private final String method;
  private final boolean unary;
  private final long started = System.nanoTime();
  private final AtomicBoolean ended = new AtomicBoolean();

  /**
   * @param space the space the request names, as given
   * @param method the FeedSync method the request does ({@code Query}, {@code Append}, {@code Watch})
   * @param unary false for an event stream
   */
  public HttpExchange(Request request, Response response, Callback callback, ServerCore core, String space, String method,
      boolean unary) {
    this.request = request;
    this.response = response;
    this.callback = callback;
    this.core = core;
    this.space = space;
    this.method = method;
    this.unary = unary;
  }

  /**
   * Reads the request's whole body, at most {@code max} bytes ({@code max-message-bytes}), and runs
   * {@code then} with it on the request executor; a body too long or cut short fails the exchange
   * there. Called on Jetty's thread; blocks on nothing.
   */
  public void readBody(int max, Consumer<byte[]> then) {
    RequestBody.read(request, max, new RequestBody.Reader() {
      @Override
      public void whole(byte[] body) {
        dispatch(() -> then.accept(body));
      }

      @Override
      public void tooLarge(long seen) {
        dispatch(() -> fail(new LimitExceededException(
            MAX_MESSAGE_BYTES.name(), max, seen, "the request body")));
      }

      @Override
      public void failed(Throwable failure) {
        dispatch(() -> fail(new InvalidValueException("body", "must arrive whole",
            RateLimitedLog.clip(String.valueOf(failure)))));
      }
    });
  }

  /** Runs {@code work} on the request executor; a refusal of it (shutting down) fails the exchange. */
  private void dispatch(Runnable work) {
    try {
      core.requestExecutor().execute(work);
    } catch (RejectedExecutionException e) {
      fail(new ShuttingDownException());
    }
  }

  public Request request() {
    return request;
  }

  public Response response() {
    return response;
  }

  public Callback callback() {
    return callback;
  }

  public String method() {
    return method;
  }

  ServerCore core() {
    return core;
  }

  String space() {
    return space;
  }

  /** Answers {@code status} with a JSON body. */
  void json(int status, String json) {
    ended(status == 200 ? "OK" : "UNKNOWN");
    write(response, callback, status, json);
  }

  /**
   * Answers the refusal of {@code failure}: its status (with {@code Retry-After} when it passes with
   * time) and {@code {code, message}}, with the details gRPC puts in its trailers where a program
   * needs them: the conflicting {@code keys}, or a {@code reason} ({@code CURSOR_COMPACTED} with the
   * {@code floor}, {@code SUBSCRIPTION_UNKNOWN} or {@code SUBSCRIPTION_EXPIRED} with the {@code
   * subscription_id}, {@code STREAM_CLOSED} with the {@code feeds}); logs it as a rejection, or as a failure when it is the
   * server's own, at the logs' bounded rates.
   */
  public void fail(Throwable failure) {
    CallRefusal refusal = CallRefusal.of(failure);
    String line = method + " over HTTP from " + Request.getRemoteAddr(request) + " (space '"
        + RateLimitedLog.clip(space) + "') " + refusal.code() + ": " + refusal.message();
    if (failure instanceof StorageFaultException fault) {
      core.failures().log("failed " + line + " (" + fault.getMessage() + ")", null);
    } else if (refusal.code().byRequest()) {
      core.rejections().log("rejected " + line, null);
    } else {
      core.failures().log("failed " + line, failure);
    }
    ended(refusal.code().name());
    refusal.retryAfterMillis().ifPresent(millis ->
        response.getHeaders().put(HttpHeader.RETRY_AFTER, Long.toString(Math.max(1, (millis + 999) / 1000))));
    Json body = Json.object().field("code", refusal.code().name()).field("message", refusal.message());
    if (failure instanceof AppendConflictException conflict) {
      body.raw("keys", Json.array(conflict.keys().stream().map(BlockJson::of).toList()));
    } else if (failure instanceof CursorCompactedException compacted) {
      body.field("reason", CursorCompactedException.REASON).field("floor", compacted.floor().value());
    } else if (failure instanceof SubscriptionNotFoundException notFound) {
      body.field("reason", notFound.reason().name()).field("subscription_id", notFound.subscriptionId());
    } else if (failure instanceof StreamClosedException closed) {
      body.field("reason", StreamClosedException.REASON).raw("feeds", Json.array(closed.feeds().stream()
          .limit(StreamClosedException.MAX_DETAILED).map(feed -> Json.string(feed.value())).toList()));
    }
    refuse(refusal.httpStatus(), body.end());
  }

  /**
   * Answers a refusal {@code status} with a JSON body, once what is left of the request's body has
   * been read, up to {@code http-refused-body-bytes} ({@link RequestBody#discard}).
   */
  public void refuse(int status, String json) {
    refuse(request, response, callback, core.settings().get(HTTP_REFUSED_BODY_BYTES), status, json);
  }

  /** {@link #refuse(int, String)} of a request that has no exchange, reading at most {@code bound}. */
  static void refuse(Request request, Response response, Callback callback, long bound, int status, String json) {
    RequestBody.discard(request, bound, () -> write(response, callback, status, json));
  }

  /** A live stream sent one event. */
  void eventSent() {
    core.metrics().eventSent(ServerMetrics.HTTP);
  }

  /**
   * This exchange's response as the output of an event stream ({@link SseWriter}): gzipped, each
   * write flushed, when {@code sse-gzip-level} is above 0 and the client takes gzip ({@link
   * SseGzip#output}).
   */
  public SseWriter.Output events() {
    return SseGzip.output(this, new SseWriter.Output() {
      @Override
      public void write(boolean last, ByteBuffer events, Callback done) {
        response.write(last, events, done);
      }

      @Override
      public Callback completion() {
        return callback;
      }

      @Override
      public void onFailure(Consumer<Throwable> gone) {
        request.addFailureListener(gone);
      }

      @Override
      public void eventSent() {
        HttpExchange.this.eventSent();
      }

      @Override
      public void ended(String code) {
        HttpExchange.this.ended(code);
      }
    });
  }

  /** The request ended with {@code code}; counted once, whatever ends it first. */
  public void ended(String code) {
    if (ended.compareAndSet(false, true)) {
      core.metrics().callEnded(ServerMetrics.HTTP, method, code, System.nanoTime() - started, unary);
    }
  }

  /** Writes a whole JSON answer; the connection stays open for the next request. */
  static void write(Response response, Callback callback, int status, String json) {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
    response.write(true, ByteBuffer.wrap(body), callback);
  }
}
