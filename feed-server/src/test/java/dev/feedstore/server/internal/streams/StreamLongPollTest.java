package dev.feedstore.server.internal.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.internal.access.Authenticator;
import dev.feedstore.server.internal.access.Caller;
import dev.feedstore.server.internal.append.ClosedFeeds;
import dev.feedstore.server.internal.authority.AppendCommand;
import dev.feedstore.server.internal.authority.ReadRequest;
import dev.feedstore.server.internal.authority.ScopeRequest;
import dev.feedstore.server.internal.core.ServerCore;
import dev.feedstore.server.internal.http.HttpExchange;
import dev.feedstore.server.internal.live.LiveSinkAfter;
import dev.feedstore.server.internal.live.ManualExecutor;
import dev.feedstore.server.internal.live.NothingHeld;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.sqlite.SqliteFeedStore;
import dev.feedstore.testing.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A long-poll answered before its follower starts (its wait ended, or its stream closed, while the
 * follower was being opened) releases the follower as it starts: the watches hold no stream, the
 * connection's and the principal's counts are back to zero, and the space's tail has no watcher and
 * the space no holder left. Requests arrive over real HTTP on loopback; the test runs the long-poll's
 * steps in the order that lost the follower, as {@code HttpStreams} does them.
 */
class StreamLongPollTest {
  private static final SpaceId SPACE = SpaceId.of("s");
  private static final String CONNECTION = "http test";
  private static final String PRINCIPAL = "p";

  @TempDir Path dir;
  SqliteFeedStore store;
  ServerCore core;
  Server jetty;
  final BlockingQueue<HttpExchange> arrived = new LinkedBlockingQueue<>();
  final HttpClient client = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    store = SqliteFeedStore.open(dir.resolve("feeds.db"));
    core = new ServerCore(store, ServerSettings.DEFAULTS, Clock.systemUTC(),
        new Authenticator(Optional.empty(), Optional.empty()), ClosedFeeds.NONE);
    core.authority().append(new AppendCommand(SPACE, Optional.empty(),
        List.of(TestBlocks.block(TestBlocks.feedId(), "a", 0))));
    jetty = new Server();
    ServerConnector connector = new ServerConnector(jetty);
    connector.setHost("127.0.0.1");
    jetty.addConnector(connector);
    jetty.setHandler(new Handler.Abstract() {
      @Override
      public boolean handle(Request request, Response response, Callback callback) {
        arrived.add(new HttpExchange(request, response, callback, core, SPACE.value(), "StreamRead", true));
        return true;
      }
    });
    jetty.start();
  }

  @AfterEach
  void stop() throws Exception {
    jetty.stop();
    core.close();
    store.close();
  }

  @Test
  void aLongPollAnsweredBeforeItsFollowerStartsReleasesTheFollowerAsItStarts() throws Exception {
    CompletableFuture<HttpResponse<Void>> response = poll();
    HttpExchange exchange = take();
    ManualExecutor answering = new ManualExecutor();
    StreamLongPoll poll = new StreamLongPoll(exchange, () -> answerEmpty(exchange), answering);

    poll.fire(); // the wait ends before the follower has started; its answer is not written yet
    core.watches().openFollower(atTheTail(), new LiveSinkAfter(poll, () -> { }), CONNECTION, Caller.open(PRINCIPAL));
    answering.runAll();

    assertEquals(204, response.get(30, TimeUnit.SECONDS).statusCode());
    assertNothingHeld();
  }

  @Test
  void aLongPollWhoseAnswerCompletedBeforeItsFollowerStartsOpensNothingAndFailsNothing() throws Exception {
    CompletableFuture<HttpResponse<Void>> response = poll();
    HttpExchange exchange = take();
    StreamLongPoll poll = new StreamLongPoll(exchange, () -> answerEmpty(exchange), Runnable::run);

    poll.fire(); // the wait ends and its answer is written before the follower has started
    assertEquals(204, response.get(30, TimeUnit.SECONDS).statusCode());
    Await.until("the exchange is complete", () -> completed(exchange.request()));
    core.watches().openFollower(atTheTail(), new LiveSinkAfter(poll, () -> { }), CONNECTION, Caller.open(PRINCIPAL));

    assertNothingHeld();
  }

  private void assertNothingHeld() {
    NothingHeld.assertNothingHeld(core.watches(), core.principalLimits(), core.authority(), atTheTail(), CONNECTION,
        PRINCIPAL);
  }

  private static ReadRequest atTheTail() {
    return new ReadRequest(SPACE, ScopeRequest.WHOLE_SPACE, Position.of(1), 100, Optional.empty(), false,
        OptionalLong.empty());
  }

  private CompletableFuture<HttpResponse<Void>> poll() {
    int port = ((ServerConnector) jetty.getConnectors()[0]).getLocalPort();
    return client.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/poll")).build(),
        HttpResponse.BodyHandlers.discarding());
  }

  private HttpExchange take() throws InterruptedException {
    HttpExchange exchange = arrived.poll(30, TimeUnit.SECONDS);
    if (exchange == null) {
      throw new AssertionError("no request arrived within 30 s");
    }
    return exchange;
  }

  private static void answerEmpty(HttpExchange exchange) {
    exchange.ended("OK");
    exchange.response().setStatus(204);
    exchange.response().write(true, null, exchange.callback());
  }

  /** Whether Jetty is done with the request's channel: then it takes no failure listener. */
  private static boolean completed(Request request) {
    try {
      request.addFailureListener(failure -> { });
      return false;
    } catch (IllegalStateException e) {
      return true;
    }
  }
}
