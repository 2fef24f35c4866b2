package dev.feedstore.testing;

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

  /**
   * Writes the RSA private key of {@code pem} in PKCS#1 ({@code -----BEGIN RSA PRIVATE KEY-----}), the
   * format older tools and {@code openssl genrsa} of OpenSSL 1.x write, beside it; returns the file.
   */
  public static Path pkcs1Key(Pem pem) {
    try {
      String text = Files.readString(pem.privateKey(), StandardCharsets.US_ASCII);
      String base64 = text.replace("-----BEGIN PRIVATE KEY-----", "").replace("-----END PRIVATE KEY-----", "");
      byte[] pkcs8 = Base64.getMimeDecoder().decode(base64.strip());
      // PrivateKeyInfo ::= SEQUENCE { version INTEGER, algorithm SEQUENCE, privateKey OCTET STRING }: the
      // octet string holds the PKCS#1 RSAPrivateKey.
      Der info = Der.at(pkcs8, 0);
      Der version = Der.at(pkcs8, info.contentStart());
      Der algorithm = Der.at(pkcs8, version.end());
      Der key = Der.at(pkcs8, algorithm.end());
      byte[] pkcs1 = java.util.Arrays.copyOfRange(pkcs8, key.contentStart(), key.end());
      Path file = pem.privateKey().resolveSibling("tls-key-pkcs1.pem");
      Files.writeString(file, pem("RSA PRIVATE KEY", pkcs1));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** One DER element: where its content starts and where it ends. */
  private record Der(int contentStart, int end) {
    static Der at(byte[] der, int offset) {
      int lengthByte = der[offset + 1] & 0xff;
      if (lengthByte < 0x80) {
        return new Der(offset + 2, offset + 2 + lengthByte);
      }
      int count = lengthByte & 0x7f;
      int length = 0;
      for (int i = 0; i < count; i++) {
        length = (length << 8) | (der[offset + 2 + i] & 0xff);
      }
      return new Der(offset + 2 + count, offset + 2 + count + length);
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
