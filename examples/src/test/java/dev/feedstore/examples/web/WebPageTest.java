package dev.feedstore.examples.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.server.FeedServer;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.sqlite.SqliteFeedStore;
import dev.feedstore.testing.Await;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The web page ({@code examples/web}) in a real headless Chromium, served by the server at {@code
 * /ui/}: it shows three blocks appended over gRPC, follows the server through a restart and shows
 * the next two exactly once, and appends a line of its own.
 *
 * <p>It needs Debian's {@code chromium} and {@code chromium-driver} ({@code .ci/run} installs them);
 * without them it is skipped, unless {@code -Dbrowsers.required=true} (see {@link Chromium}).
 */
class WebPageTest {
  @TempDir Path dir;
  SqliteFeedStore store;
  FeedServer server;
  ChromeDriver browser;
  ManagedChannel channel;
  int grpcPort;
  int httpPort;

  @BeforeEach
  void start() throws IOException {
    Chromium chromium = Chromium.locate();
    startServer();
    channel = Grpc.newChannelBuilderForAddress("127.0.0.1", grpcPort, InsecureChannelCredentials.create()).build();
    ChromeOptions options = new ChromeOptions();
    options.setBinary(chromium.browser().toFile());
    // Headless, and quiet on a closed network: no updates, sync or background fetches.
    options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage", "--user-data-dir=" + Files.createDirectories(dir.resolve("profile")));
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(chromium.driver().toFile()).usingAnyFreePort().build();
    browser = new ChromeDriver(service, options);
  }

  @AfterEach
  void stop() {
    if (browser != null) {
      browser.quit();
    }
    if (channel != null) {
      channel.shutdownNow();
    }
    stopServer();
  }

  @Test
  void thePageShowsBlocksLiveFollowsARestartExactlyOnceAndAppendsALine() throws Exception {
    FeedId feed = TestBlocks.feedId();
    browser.get("http://127.0.0.1:" + httpPort + "/ui/?space=web");
    Await.until("the page is live", Duration.ofSeconds(30), () -> status().startsWith("live"));

    grpc().append(Wire.append("web", Wire.block(feed, "grpc", 0, "one"), Wire.block(feed, "grpc", 1, "two"),
        Wire.block(feed, "grpc", 2, "three")));
    Await.until("the page shows 3 blocks", Duration.ofSeconds(30), () -> shown().size() == 3);
    assertEquals(List.of("1 grpc one", "2 grpc two", "3 grpc three"), shown());

    stopServer();
    Await.until("the page notices", Duration.ofSeconds(30), () -> status().startsWith("reconnecting")
        || status().startsWith("the server ended"));
    startServer();
    grpc().append(Wire.append("web", Wire.block(feed, "grpc", 3, "four"), Wire.block(feed, "grpc", 4, "five")));
    Await.until("the page shows 5 blocks", Duration.ofSeconds(60), () -> shown().size() >= 5);
    assertEquals(List.of("1 grpc one", "2 grpc two", "3 grpc three", "4 grpc four", "5 grpc five"), shown(),
        "the next two, exactly once");

    browser.findElement(By.id("line")).sendKeys("typed in the page");
    browser.findElement(By.cssSelector("#append button")).click();
    Await.until("the page shows its own line", Duration.ofSeconds(30), () -> shown().size() == 6);
    assertTrue(shown().get(5).matches("6 web-\\w+ typed in the page"), shown().toString());
    var stored = grpc().query(QueryRequest.newBuilder().setSpaceId("web").setCursor(5).build()).getBlocks(0);
    assertEquals("typed in the page", stored.getData().toString(StandardCharsets.UTF_8));
    assertEquals(6, stored.getPosition());
  }

  @Test
  void theLiveQueryPanelShowsTheResultThenItsChanges() {
    FeedId feed = TestBlocks.feedId();
    grpc().append(Wire.append("web", Wire.block(feed, "a", 0, "{\"id\":1,\"status\":\"open\"}"),
        Wire.block(feed, "a", 1, "{\"id\":2,\"status\":\"done\"}")));
    browser.get("http://127.0.0.1:" + httpPort + "/ui/?space=web");
    browser.findElement(By.cssSelector("#query button")).click();
    Await.until("the panel is live", Duration.ofSeconds(30), () -> liveStatus().startsWith("live at position 2"));
    assertEquals(List.of("1 1 {\"id\":1,\"status\":\"open\"}"), rows());

    grpc().append(Wire.append("web", Wire.block(feed, "a", 2, "{\"id\":2,\"status\":\"open\"}"),
        Wire.block(feed, "a", 3, "{\"id\":1,\"status\":\"done\"}")));
    Await.until("the panel shows the change", Duration.ofSeconds(30),
        () -> liveStatus().startsWith("live at position 4"));
    assertEquals(List.of("2 3 {\"id\":2,\"status\":\"open\"}"), rows());
  }

  /** The live query panel's rows: key, position and content. */
  private List<String> rows() {
    return browser.findElements(By.cssSelector("#rows tr")).stream().map(WebElement::getText).toList();
  }

  private String liveStatus() {
    return browser.findElement(By.id("live-status")).getText();
  }

  private FeedSyncGrpc.FeedSyncBlockingStub grpc() {
    return FeedSyncGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  /** What the page shows, one line a block: position, author and text. */
  private List<String> shown() {
    return browser.findElements(By.cssSelector("#blocks li")).stream()
        .map(item -> item.getAttribute("data-position") + " " + part(item, "actor") + " " + part(item, "data"))
        .toList();
  }

  private static String part(WebElement item, String name) {
    return item.findElement(By.className(name)).getText();
  }

  private String status() {
    return browser.findElement(By.id("status")).getText();
  }

  /** Starts the server on the test's file; after the first start, on the same ports. */
  private void startServer() throws IOException {
    store = SqliteFeedStore.open(dir.resolve("feeds.db"));
    server = FeedServer.newBuilder(store).address("127.0.0.1", grpcPort).http("127.0.0.1", httpPort)
        .httpUi(Path.of("web")).build().start();
    grpcPort = server.port();
    httpPort = server.httpPort();
  }

  private void stopServer() {
    if (server != null) {
      server.close();
      store.close();
      server = null;
    }
  }
}
