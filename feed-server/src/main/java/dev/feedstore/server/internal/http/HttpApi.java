package dev.feedstore.server.internal.http;

import static dev.feedstore.server.settings.ServerSettings.HTTP_REFUSED_BODY_BYTES;

import dev.feedstore.server.internal.access.Caller;
import dev.feedstore.server.internal.core.ServerCore;
import dev.feedstore.server.internal.errors.ErrorCode;
import dev.feedstore.server.internal.errors.ShuttingDownException;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The HTTP API: routes each request to its endpoint, finds its {@link Caller} from the {@code
 * authorization} header (the same rules as gRPC), and runs the work that touches the store on the
 * server's request executor, so Jetty's threads never block.
 *
 * <ul>
 *   <li>{@code GET /v1/spaces/{space}/blocks}: a page of blocks, as Query ({@link HttpReads})
 *   <li>{@code GET /v1/spaces/{space}/events}: Server-Sent Events, as Watch ({@link HttpReads})
 *   <li>{@code GET|POST /v1/spaces/{space}/live}: a live query over Server-Sent Events, as LiveQuery
 *       ({@link HttpLiveQueries})
 *   <li>{@code POST /v1/spaces/{space}/feeds/{feed}/blocks}: an append, as Append ({@link HttpAppend})
 *   <li>the paths of the protocols it was given ({@link HttpProtocol}), such as the Durable Streams
 *       protocol under {@code /v1/stream/}
 *   <li>{@code GET /ui/...}: the web page's files, when the server was given them ({@link HttpFiles})
 * </ul>
 *
 * Anything else is 404, or 405 with {@code Allow} for another method on a known path; every error
 * is JSON {@code {code, message}}. Thread-safe.
 */
public final class HttpApi extends Handler.Abstract {
  private final ServerCore core;
  private final HttpReads reads;
  private final HttpAppend append;
  private final HttpLiveQueries liveQueries;
  private final Optional<HttpFiles> files;
  private final List<HttpProtocol> protocols;

  HttpApi(ServerCore core, Optional<HttpFiles> files, List<HttpProtocol> protocols) {
    this.core = core;
    this.reads = new HttpReads(core);
    this.append = new HttpAppend(core);
    this.liveQueries = new HttpLiveQueries(core);
    this.files = files;
    this.protocols = List.copyOf(protocols);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    List<String> path = List.of(request.getHttpURI().getPath().split("/", -1));
    if (files.isPresent() && path.size() >= 2 && path.get(1).equals("ui")) {
      return files.get().handle(request, response, callback, path.subList(2, path.size()));
    }
    String rawPath = request.getHttpURI().getPath();
    for (HttpProtocol protocol : protocols) {
      if (rawPath.startsWith(protocol.prefix())) {
        protocol.handle(request, response, callback, rawPath.substring(protocol.prefix().length()), this);
        return true;
      }
    }
    if (path.size() == 5 && path.get(0).isEmpty() && path.get(1).equals("v1") && path.get(2).equals("spaces")) {
      String space = path.get(3);
      if (path.get(4).equals("blocks")) {
        if (only("GET", request, response, callback)) {
          admit(new HttpExchange(request, response, callback, core, space, "Query", true), false, reads::page);
        }
        return true;
      }
      if (path.get(4).equals("live")) {
        liveQuery(request, response, callback, space);
        return true;
      }
      if (path.get(4).equals("events")) {
        if (only("GET", request, response, callback)) {
          admit(new HttpExchange(request, response, callback, core, space, "Watch", false), false,
              reads::events);
        }
        return true;
      }
    }
    if (path.size() == 7 && path.get(0).isEmpty() && path.get(1).equals("v1") && path.get(2).equals("spaces")
        && path.get(4).equals("feeds") && path.get(6).equals("blocks")) {
      String feed = path.get(5);
      if (only("POST", request, response, callback)) {
        admit(new HttpExchange(request, response, callback, core, path.get(3), "Append", true), true,
            (exchange, caller) -> append.append(exchange, caller, feed));
      }
      return true;
    }
    refuse(request, response, callback, 404, Json.object().field("code", ErrorCode.NOT_FOUND.name())
        .field("message", "no such endpoint: " + RateLimitedLog.clip(request.getHttpURI().getPath())
            + "; the API is GET /v1/spaces/{space}/blocks, GET /v1/spaces/{space}/events, GET or POST"
            + " /v1/spaces/{space}/live and"
            + " POST /v1/spaces/{space}/feeds/{feed}/blocks").end());
    return true;
  }

  /** A live query: GET (its token may come as {@code access_token}) or POST. */
  private void liveQuery(Request request, Response response, Callback callback, String space) {
    HttpExchange exchange = new HttpExchange(request, response, callback, core, space, "LiveQuery", false);
    switch (request.getMethod()) {
      case "GET" -> admit(exchange, false, liveQueries::get, HttpLiveQueries.authorization(request));
      case "POST" -> admit(exchange, false, liveQueries::post, request.getHeaders().get(HttpHeader.AUTHORIZATION));
      default -> {
        response.getHeaders().put(HttpHeader.ALLOW, "GET, POST");
        refuse(request, response, callback, 405, Json.object().field("code", ErrorCode.INVALID_ARGUMENT.name())
            .field("message", "method " + RateLimitedLog.clip(request.getMethod()) + " is not allowed here; use GET"
                + " or POST").end());
      }
    }
  }

  /** What an endpoint does once its caller may use the space; it answers through the exchange. */
  public interface Endpoint {
    void run(HttpExchange exchange, Caller caller) throws Exception;
  }

  /**
   * Finds the caller of {@code exchange} from its {@code authorization} header, checks its access
   * to the exchange's space (to write, when {@code write}) and its per-principal request rate, and
   * runs {@code endpoint} on the request executor; a failure is answered as its {@code Refusal}.
   * Called on Jetty's thread; blocks on nothing.
   */
  public void admit(HttpExchange exchange, boolean write, Endpoint endpoint) {
    admit(exchange, write, endpoint, exchange.request().getHeaders().get(HttpHeader.AUTHORIZATION));
  }

  /** {@link #admit}, with the caller found from {@code authorization} (null: none given). */
  private void admit(HttpExchange exchange, boolean write, Endpoint endpoint, String authorization) {
    Request request = exchange.request();
    Caller caller = core.authenticator().authenticate(authorization, Request.getRemoteAddr(request));
    try {
      caller.check(exchange.method(), exchange.space(), write);
      core.principalLimits().admitRequest(caller.principal());
      executor().execute(() -> {
        try {
          endpoint.run(exchange, caller);
        } catch (Exception e) {
          exchange.fail(e);
        }
      });
    } catch (RejectedExecutionException e) {
      exchange.fail(new ShuttingDownException());
    } catch (RuntimeException e) {
      exchange.fail(e);
    }
  }

  private void refuse(Request request, Response response, Callback callback, int status, String json) {
    HttpExchange.refuse(request, response, callback, core.settings().get(HTTP_REFUSED_BODY_BYTES), status, json);
  }

  private Executor executor() {
    return core.requestExecutor();
  }

  /** True when {@code method} is {@code allowed}; else answers 405 naming it. */
  private boolean only(String allowed, Request request, Response response, Callback callback) {
    String method = request.getMethod();
    if (allowed.equals(method)) {
      return true;
    }
    response.getHeaders().put(HttpHeader.ALLOW, allowed);
    refuse(request, response, callback, 405, Json.object().field("code", ErrorCode.INVALID_ARGUMENT.name())
        .field("message", "method " + RateLimitedLog.clip(method) + " is not allowed here; use " + allowed).end());
    return false;
  }
}
