package dev.feedstore.server.internal.http;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.HTTP_IDLE_TIMEOUT_MS;
import static dev.feedstore.server.settings.ServerSettings.MAX_MESSAGE_BYTES;

import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.server.internal.access.Caller;
import dev.feedstore.server.internal.core.ServerCore;
import dev.feedstore.server.internal.queries.ResumeToken;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Fields;

/**
 * Live queries over Server-Sent Events ({@link SseQuerySink}), with the rules of gRPC LiveQuery:
 * {@code POST /v1/spaces/{space}/live} with the query in the body (its JSON form, or the text
 * form), or {@code GET /v1/spaces/{space}/live?q=QUERY}, which an {@code EventSource} can open. A
 * {@code Last-Event-ID} header (what {@code EventSource} sends on reconnect: the last event's
 * {@code id}, a resume token) continues after it. A GET may carry its bearer token as {@code
 * access_token}, for clients that cannot send headers; it is used only when no {@code
 * authorization} header is given, and never logged (the logs name paths, not query strings).
 * Thread-safe.
 */
final class HttpLiveQueries {
  static final String QUERY = "q";
  static final String ACCESS_TOKEN = "access_token";
  private static final Set<String> GET_PARAMS = Set.of(QUERY, ACCESS_TOKEN);

  private final ServerCore core;

  HttpLiveQueries(ServerCore core) {
    this.core = core;
  }

  /**
   * The {@code authorization} a live query's GET carries: its header, or a bearer token from
   * {@code access_token}; null when neither is given.
   */
  static String authorization(Request request) {
    String header = request.getHeaders().get(HttpHeader.AUTHORIZATION);
    if (header != null) {
      return header;
    }
    try {
      Fields.Field token = Request.extractQueryParameters(request).get(ACCESS_TOKEN);
      return token == null ? null : "Bearer " + token.getValue();
    } catch (RuntimeException e) {
      return null; // a malformed query string is refused with the parameters
    }
  }

  void get(HttpExchange exchange, Caller caller) {
    HttpParams params = HttpParams.of(exchange.request(), GET_PARAMS);
    String form = params.one(QUERY).orElseThrow(() -> new InvalidValueException(QUERY,
        "must be given: the live query, in its text or JSON form", "absent"));
    open(exchange, caller, form);
  }

  void post(HttpExchange exchange, Caller caller) {
    HttpParams.of(exchange.request(), Set.of());
    exchange.readBody(core.settings().get(MAX_MESSAGE_BYTES), body -> {
      try {
        open(exchange, caller, new String(body, StandardCharsets.UTF_8));
      } catch (RuntimeException e) {
        exchange.fail(e);
      }
    });
  }

  private void open(HttpExchange exchange, Caller caller, String form) {
    Request request = exchange.request();
    LiveQuery query = LiveQuery.parse(form, SpaceId.of(exchange.space()));
    String lastEventId = request.getHeaders().get("Last-Event-ID");
    Optional<ResumeToken> resume = lastEventId == null || lastEventId.isEmpty() ? Optional.empty()
        : Optional.of(ResumeToken.parse(lastEventId, "Last-Event-ID"));
    core.blockAccess().liveQuery(caller, query.space(), query.scope());
    // An event stream is quiet between heartbeats: it may idle for one interval and then some.
    request.getConnectionMetaData().getConnection().getEndPoint().setIdleTimeout(
        core.settings().get(HEARTBEAT_MS) + core.settings().get(HTTP_IDLE_TIMEOUT_MS));
    core.liveQueries().open(query, resume, new SseQuerySink(exchange),
        "http " + Request.getRemoteAddr(request) + ":" + Request.getRemotePort(request), caller);
  }
}
