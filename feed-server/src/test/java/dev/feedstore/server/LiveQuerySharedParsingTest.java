package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.LiveQueryView;
import dev.feedstore.server.testing.MetricsSamples;
import dev.feedstore.server.testing.Tasks;
import dev.feedstore.sqlite.SqliteFeedStore;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A block's JSON is read once per commit for all the live queries of its space, however many
 * queries and subscribers follow it: counted by the server's {@code
 * feedstore_live_query_blocks_parsed_total}, never timed.
 */
class LiveQuerySharedParsingTest {
  private static final String PARSED = "feedstore_live_query_blocks_parsed_total";

  @TempDir Path dir;

  @Test
  void eachBlockOfACommitIsParsedOnceForFourQueriesAndSixSubscribers() throws Exception {
    try (SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("feeds.db"));
        FeedServer server = FeedServer.newBuilder(store)
            .settings(ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).build())
            .address("127.0.0.1", 0).metricsAddress("127.0.0.1", 0).build().start()) {
      ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1", server.port(),
          InsecureChannelCredentials.create()).build();
      try {
        Tasks tasks = new Tasks(FeedSyncGrpc.newBlockingStub(channel));
        tasks.append("1:open", "2:done:3");
        // Every commit below changes every query's result, so that each subscriber is told of it.
        List<LiveQueryView> views = new ArrayList<>();
        for (String where : List.of("/status = \"open\"", "/status = \"open\"", "/status = \"open\"",
            "/status = \"done\"", "/rank > 1", "/status in [\"open\", \"done\"]")) {
          views.add(new LiveQueryView(LiveQuery.parse("space:s key:/id where " + where))
              .open(FeedSyncGrpc.newStub(channel)).awaitReady());
        }
        assertEquals(4, server.sharedLiveQueries(), "three subscribers share one query");

        double before = parsed(server);
        long position = tasks.append("3:open:1", "1:done:5", "4:open:2");
        views.forEach(view -> view.awaitPosition(position));
        assertEquals(3, parsed(server) - before, "three blocks, each parsed once for every query and subscriber");

        long next = tasks.append("5:done:2", "2:open:9");
        views.forEach(view -> view.awaitPosition(next));
        assertEquals(5, parsed(server) - before, "two more blocks, two more parses");
      } finally {
        channel.shutdownNow();
      }
    }
  }

  private static double parsed(FeedServer server) {
    Double value = MetricsSamples.scrape(server.metricsPort()).get(PARSED);
    if (value == null) {
      throw new AssertionError(PARSED + " is not on the metrics page");
    }
    return value;
  }
}
