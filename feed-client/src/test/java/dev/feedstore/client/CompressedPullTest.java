package dev.feedstore.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.feedstore.client.testing.Replicas;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.FeedInfo;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.server.FeedServer;
import dev.feedstore.sqlite.SqliteFeedStore;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.ServerStreamTracer;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library takes the gzip the authority offers: a replica that connects with its own channel
 * ({@code connect(target, options)}) pulls pages the server sent gzipped, and holds every block.
 */
class CompressedPullTest {
  private static final SpaceId SPACE = SpaceId.of("team");

  @TempDir Path dir;

  @Test
  void aReplicaCatchesUpFromPagesTheServerSentGzipped() throws Exception {
    Map<String, AtomicLong> sent = new ConcurrentHashMap<>();
    NettyServerBuilder socket = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addStreamTracerFactory(new ServerStreamTracer.Factory() {
          @Override
          public ServerStreamTracer newServerStreamTracer(String method, io.grpc.Metadata headers) {
            String name = method.substring(method.lastIndexOf('/') + 1);
            return new ServerStreamTracer() {
              @Override
              public void outboundWireSize(long bytes) {
                sent.computeIfAbsent(name + " wire", n -> new AtomicLong()).addAndGet(bytes);
              }

              @Override
              public void outboundUncompressedSize(long bytes) {
                sent.computeIfAbsent(name + " inflated", n -> new AtomicLong()).addAndGet(bytes);
              }
            };
          }
        });
    FeedId feed = FeedId.generate();
    try (SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("authority.db"));
        FeedServer server = FeedServer.newBuilder(store).serverBuilder(socket).build().start();
        Replicas replicas = new Replicas(dir)) {
      ManagedChannel writer = Grpc.newChannelBuilderForAddress("127.0.0.1", server.port(),
          InsecureChannelCredentials.create()).build();
      try {
        AppendRequest.Builder append = AppendRequest.newBuilder().setSpaceId(SPACE.value());
        for (int i = 0; i < 500; i++) {
          append.addBlocks(Block.newBuilder().setFeedId(feed.value()).setActorId("w").setSequence(i)
              .setTimestamp(1_700_000_000_000L).setData(ByteString.copyFromUtf8("{\"n\":" + i
                  + ",\"note\":\"the same words in every block, as JSON documents often have\"}")));
        }
        FeedSyncGrpc.newBlockingStub(writer).append(append.build());
      } finally {
        writer.shutdownNow();
      }

      Replica reader = replicas.open("reader");
      reader.replicateSpace(SPACE, Replication.fullHistory());
      try (SyncSession session = reader.connect("127.0.0.1:" + server.port(), ConnectOptions.DEFAULTS)) {
        assertTrue(session.awaitSynced(Duration.ofSeconds(60)), "synced: " + session.status());
      }

      assertEquals(500, reader.feeds(SPACE).stream().mapToLong(FeedInfo::blockCount).sum());
      assertEquals("{\"n\":499,\"note\":\"the same words in every block, as JSON documents often have\"}",
          reader.read(SPACE, feed).get(499).data().toStringUtf8());
      long wire = sent.get("Query wire").get();
      long inflated = sent.get("Query inflated").get();
      assertTrue(wire * 3 < inflated, "the pages went gzipped: " + wire + " bytes on the wire of " + inflated);
    }
  }
}
