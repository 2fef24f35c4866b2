package dev.feedstore.server.internal.access;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server's TLS identity: a certificate chain and the private key of its first certificate, in
 * two PEM files, checked before the server listens. The TLS library would take a key of another
 * certificate and fail every handshake without a word in the log, and its errors for a key in the
 * wrong format do not name the file; here each problem names the file and the fix.
 */
public final class TlsIdentity {
  private static final Pattern PEM_BLOCK =
      Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]*)-----END \\1-----");
  private static final String CONVERT = "convert it with: openssl pkcs8 -topk8 -nocrypt -in %s -out %s";

  private TlsIdentity() {}

  /**
   * Checks that {@code certificateChain} holds PEM certificates and {@code privateKey} the
   * unencrypted PKCS#8 key of the first of them.
   *
   * @throws IllegalArgumentException naming the file, the problem and the fix
   */
  public static void check(Path certificateChain, Path privateKey) {
    List<X509Certificate> chain = certificates(certificateChain, read(certificateChain, "certificate chain"));
    PrivateKey key = privateKey(privateKey, read(privateKey, "private key"), chain.get(0).getPublicKey());
    if (signs(key, chain.get(0).getPublicKey()).orElse(true)) {
      return;
    }
    for (int i = 1; i < chain.size(); i++) {
      if (signs(key, chain.get(i).getPublicKey()).orElse(false)) {
        throw new IllegalArgumentException("the TLS private key " + privateKey + " belongs to certificate " + (i + 1)
            + " of " + certificateChain + " (" + subject(chain.get(i)) + "), not to the first: put the server's own"
            + " certificate first in the chain, then the certificates that issued it");
      }
    }
    throw new IllegalArgumentException("the TLS private key " + privateKey + " does not belong to the certificate in "
        + certificateChain + " (" + subject(chain.get(0)) + "): every handshake would fail; give the key this"
        + " certificate was issued for, or the certificate of this key");
  }

  /**
   * The chain and key as an in-memory key store (alias {@value #ALIAS}, password {@code
   * password}), for TLS stacks that take one, such as Jetty's. Checks the files as {@link #check}
   * does first.
   *
   * @throws IllegalArgumentException naming the file, the problem and the fix
   */
  public static java.security.KeyStore keyStore(Path certificateChain, Path privateKey, char[] password) {
    check(certificateChain, privateKey);
    List<X509Certificate> chain = certificates(certificateChain, read(certificateChain, "certificate chain"));
    PrivateKey key = privateKey(privateKey, read(privateKey, "private key"), chain.get(0).getPublicKey());
    try {
      java.security.KeyStore store = java.security.KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry(ALIAS, key, password, chain.toArray(new Certificate[0]));
      return store;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalArgumentException("cannot hold the TLS key " + privateKey + " and certificates "
          + certificateChain + " in a key store: " + e.getMessage(), e);
    }
  }

  /** The alias of the server's key in {@link #keyStore}. */
  public static final String ALIAS = "feed-server";

  private static List<X509Certificate> certificates(Path file, String pem) {
    List<String> labels = labels(pem);
    if (!labels.contains("CERTIFICATE")) {
      if (labels.stream().anyMatch(label -> label.endsWith("PRIVATE KEY"))) {
        throw new IllegalArgumentException("the TLS certificate file " + file + " holds a private key, not a"
            + " certificate: give it as the private key (--tls-key) and the certificate chain as --tls-cert");
      }
      throw new IllegalArgumentException("the TLS certificate file " + file + " holds no PEM certificate (a block"
          + " that starts with -----BEGIN CERTIFICATE-----); a DER certificate converts with: openssl x509 -inform der"
          + " -in " + file + " -out " + file + ".pem");
    }
    try {
      List<X509Certificate> chain = new ArrayList<>();
      for (Certificate certificate : CertificateFactory.getInstance("X.509")
          .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.ISO_8859_1)))) {
        chain.add((X509Certificate) certificate);
      }
      return chain;
    } catch (GeneralSecurityException | RuntimeException e) {
      throw new IllegalArgumentException("the TLS certificate file " + file + " is not a valid PEM certificate"
          + " chain: " + e.getMessage(), e);
    }
  }

  private static PrivateKey privateKey(Path file, String pem, PublicKey certified) {
    List<String> labels = labels(pem);
    String converted = file + ".pkcs8";
    if (labels.contains("RSA PRIVATE KEY") || labels.contains("EC PRIVATE KEY")) {
      String format = labels.contains("RSA PRIVATE KEY") ? "PKCS#1 (-----BEGIN RSA PRIVATE KEY-----)"
          : "SEC1 (-----BEGIN EC PRIVATE KEY-----)";
      throw new IllegalArgumentException("the TLS private key " + file + " is in " + format + " format; the server"
          + " reads unencrypted PKCS#8 (-----BEGIN PRIVATE KEY-----): " + String.format(CONVERT, file, converted)
          + " and give " + converted);
    }
    if (labels.contains("ENCRYPTED PRIVATE KEY")) {
      throw new IllegalArgumentException("the TLS private key " + file + " is encrypted; the server reads it"
          + " unencrypted (keep the file readable by the server's user only): " + String.format(CONVERT, file, converted)
          + " (it asks for the passphrase) and give " + converted);
    }
    if (!labels.contains("PRIVATE KEY")) {
      if (labels.contains("CERTIFICATE")) {
        throw new IllegalArgumentException("the TLS private key file " + file + " holds a certificate, not a private"
            + " key: give it as the certificate chain (--tls-cert) and its private key as --tls-key");
      }
      throw new IllegalArgumentException("the TLS private key file " + file + " holds no PEM private key (a block"
          + " that starts with -----BEGIN PRIVATE KEY-----)");
    }
    byte[] der = block(pem, "PRIVATE KEY");
    try {
      return KeyFactory.getInstance(certified.getAlgorithm()).generatePrivate(new PKCS8EncodedKeySpec(der));
    } catch (GeneralSecurityException | RuntimeException e) {
      throw new IllegalArgumentException("the TLS private key " + file + " is not a PKCS#8 " + certified.getAlgorithm()
          + " key, the kind of key its certificate holds (" + e.getMessage() + "): give the key the certificate was"
          + " issued for", e);
    }
  }

  /**
   * Whether {@code key} makes signatures that {@code certified} verifies, which holds exactly when
   * they are the two halves of one key pair; empty for a kind of key this check does not know.
   */
  private static Optional<Boolean> signs(PrivateKey key, PublicKey certified) {
    String algorithm = switch (certified.getAlgorithm()) {
      case "RSA" -> "SHA256withRSA";
      case "EC" -> "SHA256withECDSA";
      case "EdDSA", "Ed25519", "Ed448" -> "EdDSA";
      default -> null;
    };
    if (algorithm == null || !key.getAlgorithm().equals(certified.getAlgorithm())) {
      return algorithm == null ? Optional.empty() : Optional.of(false);
    }
    try {
      byte[] challenge = new byte[32];
      new SecureRandom().nextBytes(challenge);
      Signature signer = Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(challenge);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(certified);
      verifier.update(challenge);
      return Optional.of(verifier.verify(signature));
    } catch (GeneralSecurityException | RuntimeException e) {
      return Optional.of(false);
    }
  }

  private static String read(Path file, String what) {
    try {
      // Every byte is a character in ISO-8859-1, so a binary (DER) file reads too and is reported as not PEM.
      return Files.readString(file, StandardCharsets.ISO_8859_1);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("cannot read the TLS " + what + " " + file + ": " + e, e);
    }
  }

  private static List<String> labels(String pem) {
    List<String> labels = new ArrayList<>();
    Matcher matcher = PEM_BLOCK.matcher(pem);
    while (matcher.find()) {
      labels.add(matcher.group(1));
    }
    return labels;
  }

  private static byte[] block(String pem, String label) {
    Matcher matcher = PEM_BLOCK.matcher(pem);
    while (matcher.find()) {
      if (matcher.group(1).equals(label)) {
        return Base64.getMimeDecoder().decode(matcher.group(2));
      }
    }
    throw new IllegalStateException("no " + label + " block");
  }

  private static String subject(X509Certificate certificate) {
    return "subject " + certificate.getSubjectX500Principal().getName();
  }
}
