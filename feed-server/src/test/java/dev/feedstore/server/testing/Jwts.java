package dev.feedstore.server.testing;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;

/** Keys and signed JWTs for tests of JWT access, made with nimbus-jose-jwt. */
public final class Jwts {
  public static final String ISSUER = "https://issuer.example";
  public static final String AUDIENCE = "feeds";

  private Jwts() {}

  /** A new RSA key pair with key id {@code kid}. */
  public static RSAKey rsa(String kid) {
    try {
      return new RSAKeyGenerator(2048).keyID(kid).generate();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Writes the public halves of {@code keys} as a JWKS file. */
  public static Path jwksFile(Path file, RSAKey... keys) {
    try {
      Files.writeString(file, new JWKSet(List.of(keys)).toPublicJWKSet().toString());
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Claims of {@code subject} for ISSUER and AUDIENCE, granting {@code grants}, valid for an hour. */
  public static JWTClaimsSet.Builder claims(String subject, Map<String, List<String>> grants) {
    return new JWTClaimsSet.Builder().subject(subject).issuer(ISSUER).audience(AUDIENCE)
        .expirationTime(Date.from(Instant.now().plus(Duration.ofHours(1)))).claim("feedstore", grants);
  }

  /** {@code claims} signed with {@code key} (RS256). */
  public static String sign(RSAKey key, JWTClaimsSet.Builder claims) {
    try {
      SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(),
          claims.build());
      jwt.sign(new RSASSASigner(key));
      return jwt.serialize();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code claims} signed with {@code secret} (HS256). */
  public static String sign(byte[] secret, JWTClaimsSet.Builder claims) {
    try {
      SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims.build());
      jwt.sign(new MACSigner(secret));
      return jwt.serialize();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }
}
