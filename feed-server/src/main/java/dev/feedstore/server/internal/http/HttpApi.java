package dev.feedstore.server.internal.http;

import static dev.feedstore.server.settings.ServerSettings.HTTP_REFUSED_BODY_BYTES;

import dev.feedstore.server.internal.access.Caller;
import dev.feedstore.server.internal.core.ServerCore;
import dev.feedstore.server.internal.errors.ErrorCode;
import dev.feedstore.server.internal.errors.ShuttingDownException;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import dev.feedstore.server.internal.http.HttpRoute.Access;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The HTTP API: routes each request to its endpoint ({@link HttpRoute}), finds its {@link Caller}
 * from the {@code authorization} header (the same rules as gRPC), and runs the work that touches
 * the store on the server's request executor, so Jetty's threads never block. Each endpoint
 * mirrors a FeedSync call:
 *
 * <ul>
 *   <li>{@code GET /v1/spaces/{space}/blocks}: a page of blocks, as Query ({@link HttpReads})
 *   <li>{@code GET /v1/spaces/{space}/events}: Server-Sent Events, as Watch ({@link HttpReads})
 *   <li>{@code GET|POST /v1/spaces/{space}/live}: a live query over Server-Sent Events, as LiveQuery
 *       ({@link HttpLiveQueries})
 *   <li>{@code POST /v1/spaces/{space}/feeds/{feed}/blocks}: an append, as Append ({@link HttpAppend})
 *   <li>{@code GET /v1/spaces/{space}/feeds}: a page of the space's feeds, as ListFeeds ({@link HttpCalls})
 *   <li>{@code POST /v1/spaces/{space}/subscriptions}, {@code GET} of the same path and {@code POST
 *       /v1/spaces/{space}/subscriptions/{subscription}/ack}: Subscribe, ListSubscriptions and Ack
 *       ({@link HttpCalls})
 *   <li>{@code POST /v1/spaces/{space}/compact} and {@code PUT /v1/spaces/{space}/retention}:
 *       Compact and SetRetention, with an admin grant ({@link HttpCalls})
 *   <li>{@code GET /v1/server}: the server's version and limits, as GetServerInfo ({@link HttpCalls})
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
  private final List<HttpRoute> routes;
  private final Optional<HttpFiles> files;
  private final List<HttpProtocol> protocols;

  HttpApi(ServerCore core, Optional<HttpFiles> files, List<HttpProtocol> protocols) {
    this.core = core;
    HttpReads reads = new HttpReads(core);
    HttpAppend append = new HttpAppend(core);
    HttpCalls calls = new HttpCalls(core);
    HttpLiveQueries liveQueries = new HttpLiveQueries(core);
    this.routes = List.of(
        HttpRoute.unary("GET", "/v1/spaces/{space}/blocks", "Query", Access.READ,
            (exchange, caller, path) -> reads.page(exchange, caller)),
        new HttpRoute("GET", "/v1/spaces/{space}/events", "Watch", Access.READ, true,
            (exchange, caller, path) -> reads.events(exchange, caller)),
        new HttpRoute("GET", "/v1/spaces/{space}/live", "LiveQuery", Access.READ, true,
            (exchange, caller, path) -> liveQueries.get(exchange, caller)),
        new HttpRoute("POST", "/v1/spaces/{space}/live", "LiveQuery", Access.READ, true,
            (exchange, caller, path) -> liveQueries.post(exchange, caller)),
        HttpRoute.unary("POST", "/v1/spaces/{space}/feeds/{feed}/blocks", "Append", Access.WRITE,
            (exchange, caller, path) -> append.append(exchange, caller, path.get("feed"))),
        HttpRoute.unary("GET", "/v1/spaces/{space}/feeds", "ListFeeds", Access.READ, calls::feeds),
        HttpRoute.unary("POST", "/v1/spaces/{space}/subscriptions", "Subscribe", Access.READ, calls::subscribe),
        HttpRoute.unary("GET", "/v1/spaces/{space}/subscriptions", "ListSubscriptions", Access.READ,
            calls::subscriptions),
        HttpRoute.unary("POST", "/v1/spaces/{space}/subscriptions/{subscription}/ack", "Ack", Access.READ,
            calls::ack),
        HttpRoute.unary("POST", "/v1/spaces/{space}/compact", "Compact", Access.READ, calls::compact),
        HttpRoute.unary("PUT", "/v1/spaces/{space}/retention", "SetRetention", Access.READ, calls::setRetention),
        HttpRoute.unary("GET", "/v1/server", "GetServerInfo", Access.KNOWN, calls::serverInfo));
    this.files = files;
    this.protocols = List.copyOf(protocols);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    String rawPath = request.getHttpURI().getPath();
    List<String> path = List.of(rawPath.split("/", -1));
    if (files.isPresent() && path.size() >= 2 && path.get(1).equals("ui")) {
      return files.get().handle(request, response, callback, path.subList(2, path.size()));
    }
    for (HttpProtocol protocol : protocols) {
      if (rawPath.startsWith(protocol.prefix())) {
        protocol.handle(request, response, callback, rawPath.substring(protocol.prefix().length()), this);
        return true;
      }
    }
    List<String> allowed = new ArrayList<>();
    for (HttpRoute route : routes) {
      Optional<Map<String, String>> values = route.match(path);
      if (values.isEmpty()) {
        continue;
      }
      if (route.method().equals(request.getMethod())) {
        serve(route, values.get(), request, response, callback);
        return true;
      }
      allowed.add(route.method());
    }
    if (!allowed.isEmpty()) {
      String methods = String.join(", ", allowed);
      response.getHeaders().put(HttpHeader.ALLOW, methods);
      refuse(request, response, callback, 405, Json.object().field("code", ErrorCode.INVALID_ARGUMENT.name())
          .field("message", "method " + RateLimitedLog.clip(request.getMethod()) + " is not allowed here; use "
              + methods).end());
      return true;
    }
    refuse(request, response, callback, 404, Json.object().field("code", ErrorCode.NOT_FOUND.name())
        .field("message", "no such endpoint: " + RateLimitedLog.clip(rawPath) + "; the API is "
            + String.join(", ", routes.stream().map(HttpRoute::toString).toList())).end());
    return true;
  }

  /** Admits the request of {@code route} and runs it. */
  private void serve(HttpRoute route, Map<String, String> path, Request request, Response response,
      Callback callback) {
    HttpExchange exchange = new HttpExchange(request, response, callback, core, path.getOrDefault("space", ""),
        route.call(), !route.stream());
    Endpoint endpoint = (admitted, caller) -> route.target().run(admitted, caller, path);
    switch (route.access()) {
      case KNOWN -> admit(exchange, Caller::checkKnown, endpoint);
      case READ -> admit(exchange, false, endpoint);
      case WRITE -> admit(exchange, true, endpoint);
    }
  }

  /** What an endpoint does once its caller may use the space; it answers through the exchange. */
  public interface Endpoint {
    void run(HttpExchange exchange, Caller caller) throws Exception;
  }

  /**
   * Finds the caller of {@code exchange} from its {@code authorization} header, checks its access
   * to the exchange's space (to write, when {@code write}) and its per-principal request rate, and
   * runs {@code endpoint} on the request executor; a failure is answered as its {@code CallRefusal}.
   * Called on Jetty's thread; blocks on nothing.
   */
  public void admit(HttpExchange exchange, boolean write, Endpoint endpoint) {
    admit(exchange, caller -> caller.check(exchange.method(), exchange.space(), write), endpoint);
  }

  /** {@link #admit(HttpExchange, boolean, Endpoint)} with {@code access} as the check of the caller. */
  private void admit(HttpExchange exchange, Consumer<Caller> access, Endpoint endpoint) {
    Request request = exchange.request();
    Caller caller = core.authenticator().authenticate(
        // An EventSource sends no headers: a live query's GET may carry its token as access_token.
        exchange.method().equals("LiveQuery") && request.getMethod().equals("GET")
            ? HttpLiveQueries.authorization(request) : request.getHeaders().get(HttpHeader.AUTHORIZATION),
        Request.getRemoteAddr(request));
    try {
      access.accept(caller);
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
}
