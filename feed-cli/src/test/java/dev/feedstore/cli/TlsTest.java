package dev.feedstore.cli;

import dev.feedstore.server.testing.RestartableServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.testing.TestCertificates;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** feedctl against a server that speaks TLS: {@code --tls-ca} trusts it; plain text does not reach it, and says why. */
class TlsTest {
  @TempDir static Path certificates;
  static TestCertificates.Pem pem;
  @TempDir Path dir;

  @BeforeAll
  static void makeCertificate() {
    pem = TestCertificates.selfSigned(certificates);
  }

  @Test
  void feedctlReachesATlsServerWhenToldToTrustItsCertificate() {
    try (RestartableServer server =
        RestartableServer.loopback(dir, builder -> builder.tls(pem.certificate(), pem.privateKey()))) {
      String ca = pem.certificate().toString();
      Cli.Result create = Cli.run("create", "--server", server.address(), "--tls-ca", ca, "--space", "t", "hello");
      assertEquals(0, create.exit(), create.toString());
      String feed = create.out().strip();

      Cli.Result read = Cli.run("read", "--server", server.address(), "--tls-ca", ca, "--space", "t", "--json");
      assertEquals(0, read.exit(), read.toString());
      assertEquals(feed, JsonLines.parse(read.lines()).get(0).get("feed_id"));

      Cli.Result missing = Cli.run("list", "--server", server.address(), "--space", "t",
          "--tls-ca", dir.resolve("nothing.pem").toString());
      assertEquals(FeedCtl.Exit.USAGE, missing.exit(), missing.toString());
      assertTrue(missing.err().contains("nothing.pem"), missing.err());
    }
  }

  @Test
  void plainTextAgainstATlsServerSaysTheServerSpeaksTlsAndToUseTls() {
    try (RestartableServer server =
        RestartableServer.loopback(dir, builder -> builder.tls(pem.certificate(), pem.privateKey()))) {
      Cli.Result plain = Cli.run("list", "--server", server.address(), "--space", "t");

      assertEquals(FeedCtl.Exit.UNREACHABLE, plain.exit(), plain.toString());
      assertTrue(plain.err().contains("feedctl: the server at " + server.address() + " speaks TLS, and this connection"
          + " was plain text: add --tls"), plain.err());
      assertTrue(plain.err().contains("--tls-ca FILE"), plain.err());
      assertFalse(plain.err().contains("is a feed-server running"), plain.err());
    }
  }

  @Test
  void aPlainTextServerThatIsNotRunningIsNotTakenForATlsServer() {
    RestartableServer server = RestartableServer.loopback(dir);
    String address = server.address();
    server.close();

    Cli.Result plain = Cli.run("list", "--server", address, "--space", "t");

    assertEquals(FeedCtl.Exit.UNREACHABLE, plain.exit(), plain.toString());
    assertFalse(plain.err().contains("speaks TLS"), plain.err());
    assertTrue(plain.err().contains("is a feed-server running"), plain.err());
  }
}
