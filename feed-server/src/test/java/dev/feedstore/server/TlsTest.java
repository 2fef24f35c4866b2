package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.core.testing.TestCertificates;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.sqlite.SqliteFeedStore;
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TLS on the server's socket: clients that trust its certificate are served, others are not. */
class TlsTest {
  @TempDir Path dir;

  @Test
  void aClientTrustingTheCertificateIsServedOverTlsAndPlainTextOrUntrustedClientsAreNot() throws Exception {
    TestCertificates.Pem pem = TestCertificates.selfSigned(dir);
    try (SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("feeds.db"))) {
      FeedServer server = FeedServer.newBuilder(store).address("127.0.0.1", 0)
          .tls(pem.certificate(), pem.privateKey()).build().start();
      try {
        FeedId feed = TestBlocks.feedId();
        try (Closing trusting = connect(server, TlsChannelCredentials.newBuilder().trustManager(pem.certificate().toFile())
            .build())) {
          assertEquals(List.of(1L), trusting.stub().append(Wire.append("s", Wire.block(feed, "a", 0))).getPositionsList());
        }
        for (ChannelCredentials refused : List.of(InsecureChannelCredentials.create(), TlsChannelCredentials.create())) {
          try (Closing client = connect(server, refused)) {
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> client.stub().query(QueryRequest.newBuilder().setSpaceId("s").build()));
            assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode(), refused + ": " + e.getStatus());
          }
        }
      } finally {
        server.close();
      }
    }
  }

  @Test
  void anUnreadableKeyIsRefusedNamingTheFiles() throws IOException {
    TestCertificates.Pem pem = TestCertificates.selfSigned(dir);
    Path missing = dir.resolve("no-such-key.pem");
    try (SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("feeds.db"))) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> FeedServer.newBuilder(store).address("127.0.0.1", 0).tls(pem.certificate(), missing).build());
      assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
      assertTrue(e.getMessage().contains(pem.certificate().toString()), e.getMessage());
    }
  }

  private static Closing connect(FeedServer server, ChannelCredentials credentials) {
    return new Closing(Grpc.newChannelBuilderForAddress("localhost", server.port(), credentials).build());
  }

  /** A channel shut down on close. */
  private record Closing(ManagedChannel channel) implements AutoCloseable {
    FeedSyncGrpc.FeedSyncBlockingStub stub() {
      return FeedSyncGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
      channel.shutdownNow();
    }
  }
}
