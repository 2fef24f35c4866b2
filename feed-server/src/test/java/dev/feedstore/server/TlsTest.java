package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.sqlite.SqliteFeedStore;
import dev.feedstore.testing.TestCertificates;
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TLS on the server's socket: clients that trust its certificate are served, others are not. */
class TlsTest {
  @TempDir static Path certificates;
  /** The server's certificate and key, and another pair: keytool takes seconds to make one. */
  static TestCertificates.Pem pem;
  static TestCertificates.Pem other;
  @TempDir Path dir;

  @BeforeAll
  static void makeCertificates() throws IOException {
    pem = TestCertificates.selfSigned(Files.createDirectories(certificates.resolve("served")));
    other = TestCertificates.selfSigned(Files.createDirectories(certificates.resolve("other")));
  }

  @Test
  void aClientTrustingTheCertificateIsServedOverTlsAndPlainTextOrUntrustedClientsAreNot() throws Exception {
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
  void anUnreadableKeyIsRefusedNamingTheFile() throws IOException {
    Path missing = dir.resolve("no-such-key.pem");
    String message = refusal(pem.certificate(), missing);
    assertTrue(message.contains("cannot read the TLS private key " + missing), message);
  }

  @Test
  void aKeyOfAnotherCertificateIsRefusedBeforeListeningNamingBothFiles() throws IOException {
    String message = refusal(pem.certificate(), other.privateKey());

    assertTrue(message.contains("the TLS private key " + other.privateKey() + " does not belong to the certificate in "
        + pem.certificate() + " (subject CN=localhost)"), message);
    assertTrue(message.contains("give the key this certificate was issued for"), message);
  }

  @Test
  void aChainWhoseFirstCertificateIsNotTheKeysSaysToPutTheServersOwnFirst() throws IOException {
    Path chain = Files.writeString(dir.resolve("chain.pem"),
        Files.readString(other.certificate()) + Files.readString(pem.certificate()));

    String message = refusal(chain, pem.privateKey());

    assertTrue(message.contains("the TLS private key " + pem.privateKey() + " belongs to certificate 2 of " + chain
        + " (subject CN=localhost), not to the first: put the server's own certificate first"), message);
  }

  @Test
  void aPkcs1KeyIsRefusedWithTheCommandThatConvertsIt() throws IOException {
    Path pkcs1 = TestCertificates.pkcs1Key(pem);

    String message = refusal(pem.certificate(), pkcs1);

    assertTrue(message.contains("the TLS private key " + pkcs1 + " is in PKCS#1"), message);
    assertTrue(message.contains("openssl pkcs8 -topk8 -nocrypt -in " + pkcs1 + " -out " + pkcs1 + ".pkcs8"), message);
  }

  @Test
  void sec1AndEncryptedKeysAreRefusedWithTheCommandThatConvertsThem() throws IOException {
    // The check goes by the PEM label, before any key is parsed; the bodies are only placeholders.
    Path sec1 = Files.writeString(dir.resolve("ec-key.pem"), "-----BEGIN EC PRIVATE KEY-----\nAAAA\n"
        + "-----END EC PRIVATE KEY-----\n");
    Path encrypted = Files.writeString(dir.resolve("encrypted-key.pem"), "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n"
        + "-----END ENCRYPTED PRIVATE KEY-----\n");

    String sec1Refusal = refusal(pem.certificate(), sec1);
    String encryptedRefusal = refusal(pem.certificate(), encrypted);

    assertTrue(sec1Refusal.contains("the TLS private key " + sec1 + " is in SEC1 (-----BEGIN EC PRIVATE KEY-----)"
        + " format; the server reads unencrypted PKCS#8 (-----BEGIN PRIVATE KEY-----): convert it with: openssl pkcs8"
        + " -topk8 -nocrypt -in " + sec1 + " -out " + sec1 + ".pkcs8"), sec1Refusal);
    assertTrue(encryptedRefusal.contains("the TLS private key " + encrypted + " is encrypted"), encryptedRefusal);
    assertTrue(encryptedRefusal.contains("openssl pkcs8 -topk8 -nocrypt -in " + encrypted), encryptedRefusal);
  }

  @Test
  void aCertificateAndKeyGivenTheWrongWayRoundAreRefusedSayingWhichIsWhich() throws IOException {

    String keyAsCertificate = refusal(pem.privateKey(), pem.privateKey());
    String certificateAsKey = refusal(pem.certificate(), pem.certificate());

    assertTrue(keyAsCertificate.contains("the TLS certificate file " + pem.privateKey() + " holds a private key, not a"
        + " certificate"), keyAsCertificate);
    assertTrue(certificateAsKey.contains("the TLS private key file " + pem.certificate() + " holds a certificate, not a"
        + " private key"), certificateAsKey);
  }

  /** The message of the refusal to build a server with these TLS files. */
  private String refusal(Path certificate, Path key) {
    try (SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("feeds.db"))) {
      FeedServer.Builder builder = FeedServer.newBuilder(store).address("127.0.0.1", 0).tls(certificate, key);
      return assertThrows(IllegalArgumentException.class, builder::build).getMessage();
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
