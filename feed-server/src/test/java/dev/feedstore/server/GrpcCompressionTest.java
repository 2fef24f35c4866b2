package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.COMPRESS_MIN_BYTES;
import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.Calls;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.server.testing.WireSizes;
import io.grpc.Codec;
import io.grpc.DecompressorRegistry;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * gzip on gRPC, over a real socket: a unary response of at least compress-min-bytes goes gzipped
 * to a client that accepts gzip, smaller ones and Watch as they are, and requests sent in gzip are
 * taken.
 */
class GrpcCompressionTest {
  @TempDir Path dir;
  final FeedId feed = TestBlocks.feedId();
  final List<ManagedChannel> channels = new ArrayList<>();
  TestServer t;

  @AfterEach
  void stop() {
    channels.forEach(ManagedChannel::shutdownNow);
    t.close();
  }

  void start(int compressMinBytes) {
    t = TestServer.on(dir.resolve("feeds.db")).settings(ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000)
        .set(COMPRESS_MIN_BYTES, compressMinBytes).build()).loopback().start();
    List<dev.feedstore.proto.v1.Block> blocks = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      blocks.add(Wire.block(feed, "a", i).toBuilder().setData(ByteString.copyFrom(("{\"id\":" + i + ",\"text\":\"a"
          + " message like the ones before it, and the ones after it\"}").getBytes(StandardCharsets.UTF_8))).build());
    }
    t.blocking().append(Wire.append("s", blocks));
  }

  ManagedChannel channel(boolean acceptsGzip) {
    var builder = Grpc.newChannelBuilderForAddress("127.0.0.1", t.server.port(), InsecureChannelCredentials.create());
    if (!acceptsGzip) {
      builder.decompressorRegistry(DecompressorRegistry.emptyInstance().with(Codec.Identity.NONE, false));
    }
    ManagedChannel channel = builder.build();
    channels.add(channel);
    return channel;
  }

  @Test
  void aLargeResponseGoesGzippedToAClientThatAcceptsGzip() {
    start(1024);
    WireSizes sizes = new WireSizes();
    QueryResponse page = stub(sizes.on(channel(true))).query(QueryRequest.newBuilder().setSpaceId("s").build());

    assertEquals(100, page.getBlocksCount());
    assertEquals("gzip", sizes.encoding("Query"));
    assertEquals(page.getSerializedSize(), sizes.inflated("Query"));
    assertTrue(sizes.wire("Query") * 4 < sizes.inflated("Query"), sizes.wire("Query") + " bytes on the wire of "
        + sizes.inflated("Query"));
  }

  @Test
  void smallResponsesWatchAndClientsThatDoNotAcceptGzipGetThemAsTheyAre() {
    start(1024);
    WireSizes sizes = new WireSizes();
    FeedSyncGrpc.FeedSyncBlockingStub stub = stub(sizes.on(channel(true)));
    stub.append(Wire.append("s", Wire.block(feed, "a", 100)));
    WatchEvent first = Calls.firstWatchEvent(sizes.on(channel(true)), WatchRequest.newBuilder().setSpaceId("s").build());
    WireSizes plain = new WireSizes();
    QueryResponse page = stub(plain.on(channel(false))).query(QueryRequest.newBuilder().setSpaceId("s").setLimit(1000)
        .build());

    assertEquals(sizes.inflated("Append"), sizes.wire("Append"), "an answer under compress-min-bytes");
    assertTrue(first.hasBlocks());
    assertEquals("identity", sizes.encoding("Watch"));
    assertEquals(sizes.inflated("Watch"), sizes.wire("Watch"));
    assertEquals(101, page.getBlocksCount());
    assertEquals("identity", plain.encoding("Query"));
    assertEquals(plain.inflated("Query"), plain.wire("Query"));
  }

  @Test
  void aMinimumOfZeroCompressesNothing() {
    start(0);
    WireSizes sizes = new WireSizes();

    stub(sizes.on(channel(true))).query(QueryRequest.newBuilder().setSpaceId("s").build());

    assertEquals("identity", sizes.encoding("Query"));
    assertEquals(sizes.inflated("Query"), sizes.wire("Query"));
  }

  @Test
  void aRequestSentInGzipIsTaken() {
    start(1024);

    var answer = stub(channel(true)).withCompression("gzip").append(Wire.append("s", Wire.blocks(feed, "a", 100, 50)));

    assertEquals(50, answer.getPositionsCount());
    assertEquals(150, t.blocking().query(QueryRequest.newBuilder().setSpaceId("s").setLimit(1000).build())
        .getBlocksCount());
  }

  private static FeedSyncGrpc.FeedSyncBlockingStub stub(io.grpc.Channel channel) {
    return FeedSyncGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
  }
}
