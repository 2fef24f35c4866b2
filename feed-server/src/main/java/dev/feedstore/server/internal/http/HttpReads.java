package dev.feedstore.server.internal.http;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.HTTP_IDLE_TIMEOUT_MS;

import dev.feedstore.core.InvalidValueException;
import dev.feedstore.server.internal.access.Caller;
import dev.feedstore.server.internal.authority.QueryResult;
import dev.feedstore.server.internal.authority.ReadRequest;
import dev.feedstore.server.internal.core.ServerCore;
import dev.feedstore.server.internal.spaces.Page;
import dev.feedstore.server.internal.requests.ReadFields;
import dev.feedstore.server.internal.requests.Requests;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.eclipse.jetty.server.Request;

/**
 * The reading endpoints of the HTTP API, with the rules of Query and Watch (the same validation,
 * {@link Requests}, and the same follower, {@code LiveFollower}).
 *
 * <p>{@code GET /v1/spaces/{space}/blocks?after=P&limit=N[&feed=F...|&namespace=N|&subscription=S]
 * [&server_token=T]} answers {@code {"blocks":[...],"has_more","next","max_position","cursor_block",
 * "server_token"}}: {@code next} is the {@code after} of the next page (the whole scope up to it has
 * been read). {@code since=T} (Unix milliseconds or an ISO-8601 instant) instead of {@code after}
 * starts at the blocks the authority received at or after T, and the answer adds {@code
 * start_cursor}, where that started (Query's {@code start_time}).
 *
 * <p>{@code GET /v1/spaces/{space}/events?after=P[&scope]} is a Server-Sent Events stream ({@link
 * SseSink}); a {@code Last-Event-ID} header resumes after that position (it wins over {@code
 * after} and {@code since}, so a reconnecting client resumes where it stopped), and a {@code Feed-Server-Token} header (or {@code server_token}) names the store the
 * cursor came from. Thread-safe.
 */
final class HttpReads {
  /** The header a client names its cursor's store with when it resumes. */
  static final String SERVER_TOKEN_HEADER = "Feed-Server-Token";
  private static final Set<String> SCOPE = Set.of("after", "since", "feed", "namespace", "subscription",
      "server_token");
  private static final Set<String> PAGE = union(SCOPE, "limit");

  private final ServerCore core;

  HttpReads(ServerCore core) {
    this.core = core;
  }

  void page(HttpExchange exchange, Caller caller) {
    HttpParams params = HttpParams.of(exchange.request(), PAGE);
    long after = params.count("after").orElse(0);
    OptionalLong limit = params.count("limit");
    ReadFields fields = fields(exchange, params, after, since(params), params.one("server_token"));
    ReadRequest read = named(() -> Requests.query(fields,
        (int) Math.min(Integer.MAX_VALUE, limit.orElse(0)), core.settings()));
    core.blockAccess().read(caller, "Query", read);
    QueryResult result = core.authority().query(read);
    Page page = result.page();
    List<String> blocks = page.blocks().stream()
        .map(block -> BlockJson.of(block, Optional.ofNullable(page.namespaces().get(block.feedId()))))
        .toList();
    long cursor = result.startCursor().isPresent() ? result.startCursor().getAsLong()
        : read.expectedToken().isPresent() && !read.expectedToken().get().equals(result.token().value())
            ? 0 : read.cursor().value();
    Json json = Json.object()
        .raw("blocks", Json.array(blocks))
        .field("has_more", page.hasMore())
        .field("next", page.scannedTo(cursor))
        .field("max_position", page.maxPosition().value())
        .field("floor", page.floor().value());
    page.cursorBlock().ifPresent(key -> json.raw("cursor_block", BlockJson.of(key)));
    result.startCursor().ifPresent(start -> json.field("start_cursor", start));
    exchange.json(200, json.field("server_token", result.token().value()).end());
  }

  void events(HttpExchange exchange, Caller caller) {
    Request request = exchange.request();
    HttpParams params = HttpParams.of(request, SCOPE);
    String lastEventId = request.getHeaders().get("Last-Event-ID");
    long cursor = lastEventId != null ? HttpParams.count("Last-Event-ID", lastEventId)
        : params.count("after").orElse(0);
    Optional<String> token = Optional.ofNullable(request.getHeaders().get(SERVER_TOKEN_HEADER))
        .or(() -> params.one("server_token"));
    ReadFields fields = fields(exchange, params, cursor, lastEventId == null ? since(params) : OptionalLong.empty(),
        token);
    ReadRequest read = named(() -> Requests.watch(fields, core.settings()));
    core.blockAccess().read(caller, "Watch", read);
    // An event stream is quiet between heartbeats: it may idle for one interval and then some.
    request.getConnectionMetaData().getConnection().getEndPoint().setIdleTimeout(
        core.settings().get(HEARTBEAT_MS) + core.settings().get(HTTP_IDLE_TIMEOUT_MS));
    core.watches().open(read, new SseSink(exchange, token),
        "http " + Request.getRemoteAddr(request) + ":" + Request.getRemotePort(request), caller);
  }

  /** The {@code since} parameter, which takes the place of {@code after}. */
  private static OptionalLong since(HttpParams params) {
    OptionalLong since = params.time("since");
    if (since.isPresent() && params.one("after").isPresent()) {
      throw new InvalidValueException("since", "must not be given with after (since is resolved to the cursor"
          + " to read after)", since.getAsLong());
    }
    return since;
  }

  /** The read a request asks for: its space, its scope parameters, and the cursor, start time and token given. */
  private static ReadFields fields(HttpExchange exchange, HttpParams params, long cursor, OptionalLong since,
      Optional<String> token) {
    return new ReadFields(exchange.space(), params.all("feed"), params.one("subscription"), params.one("namespace"),
        cursor, token, false, since);
  }

  /** Runs the API's validation, naming the HTTP parameters in its refusals instead of the API's fields. */
  private static ReadRequest named(java.util.function.Supplier<ReadRequest> validation) {
    try {
      return validation.get();
    } catch (InvalidValueException e) {
      String field = e.field();
      if (field.startsWith("feed_ids")) {
        throw e.withField(field.replace("feed_ids", "feed"));
      }
      if (field.equals("cursor")) {
        throw e.withField("after");
      }
      if (field.equals("start_time")) {
        throw e.withField("since");
      }
      if (field.equals("subscription_id")) {
        throw e.withField("subscription");
      }
      if (field.equals("scope")) {
        throw new InvalidValueException("scope", "must be given by at most one of feed, namespace and subscription",
            "more than one");
      }
      throw e;
    }
  }

  private static Set<String> union(Set<String> names, String more) {
    java.util.HashSet<String> all = new java.util.HashSet<>(names);
    all.add(more);
    return Set.copyOf(all);
  }
}
