package dev.feedstore.core.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.util.Base64;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed TLS certificate for {@code localhost} and {@code 127.0.0.1}, made with the JDK's
 * {@code keytool} and written as PEM files (the certificate, and the private key in PKCS#8), for
 * tests of TLS over loopback.
 */
public final class TestCertificates {
  private static final String ALIAS = "feedstore-test";
  private static final char[] PASSWORD = "feedstore-test".toCharArray();

  /** The PEM files of one certificate. */
  public record Pem(Path certificate, Path privateKey) {}

  private TestCertificates() {}

  /** Makes a new key pair and certificate in {@code dir}. */
  public static Pem selfSigned(Path dir) {
    Path keystore = dir.resolve("tls.p12");
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    run(keytool.toString(), "-genkeypair", "-alias", ALIAS, "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
        "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-keystore", keystore.toString(),
        "-storetype", "PKCS12", "-storepass", new String(PASSWORD), "-keypass", new String(PASSWORD));
    try (InputStream in = Files.newInputStream(keystore)) {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(in, PASSWORD);
      PrivateKey key = (PrivateKey) store.getKey(ALIAS, PASSWORD);
      Pem pem = new Pem(dir.resolve("tls-cert.pem"), dir.resolve("tls-key.pem"));
      Files.writeString(pem.certificate(), pem("CERTIFICATE", store.getCertificate(ALIAS).getEncoded()));
      Files.writeString(pem.privateKey(), pem("PRIVATE KEY", key.getEncoded()));
      return pem;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("reading the keystore keytool made", e);
    }
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }

  private static void run(String... command) {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new IllegalStateException("keytool failed: " + output);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
