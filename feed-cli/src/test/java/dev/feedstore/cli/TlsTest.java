package dev.feedstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.testing.TestCertificates;
import dev.feedstore.server.ServerSettings;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** feedctl against a server that speaks TLS: {@code --tls-ca} trusts it; plain text does not reach it. */
class TlsTest {
  @TempDir Path dir;

  @Test
  void feedctlReachesATlsServerWhenToldToTrustItsCertificate() {
    TestCertificates.Pem pem = TestCertificates.selfSigned(dir);
    try (LocalServer server = new LocalServer(dir, ServerSettings.DEFAULTS, pem)) {
      String ca = pem.certificate().toString();
      Cli.Result create = Cli.run("create", "--server", server.address(), "--tls-ca", ca, "--space", "t", "hello");
      assertEquals(0, create.exit(), create.toString());
      String feed = create.out().strip();

      Cli.Result read = Cli.run("read", "--server", server.address(), "--tls-ca", ca, "--space", "t", "--json");
      assertEquals(0, read.exit(), read.toString());
      assertEquals(feed, JsonLines.parse(read.lines()).get(0).get("feed_id"));

      Cli.Result plain = Cli.run("list", "--server", server.address(), "--space", "t");
      assertEquals(FeedCtl.Exit.UNREACHABLE, plain.exit(), plain.toString());

      Cli.Result missing = Cli.run("list", "--server", server.address(), "--space", "t",
          "--tls-ca", dir.resolve("nothing.pem").toString());
      assertEquals(FeedCtl.Exit.USAGE, missing.exit(), missing.toString());
      assertTrue(missing.err().contains("nothing.pem"), missing.err());
    }
  }
}
