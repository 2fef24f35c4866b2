package dev.feedstore.server.internal.access;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.ImmutableSecret;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.ConfigurableJWTProcessor;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.feedstore.server.settings.AccessTokens;
import dev.feedstore.server.settings.JwtSettings;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Checks bearer tokens that are JWTs, with nimbus-jose-jwt, as {@link JwtSettings} says: signature,
 * {@code exp}, {@code nbf}, {@code iss}, {@code aud}, a subject, and the grants claim ({@link
 * GrantsClaim}). A refusal
 * says why without the token.
 *
 * <p>Thread-safe. The keys of a JWKS file or HMAC secret file are read at start and again on
 * {@link #reload}; a JWKS URL is fetched and cached by nimbus, which refetches it for a key id it
 * does not know (key rotation).
 */
public final class JwtAccess {
  private static final Set<JWSAlgorithm> SIGNED = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512,
      JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512, JWSAlgorithm.ES256, JWSAlgorithm.ES384,
      JWSAlgorithm.ES512, JWSAlgorithm.EdDSA);
  private static final Set<JWSAlgorithm> HMAC = Set.of(JWSAlgorithm.HS256, JWSAlgorithm.HS384, JWSAlgorithm.HS512);

  private final JwtSettings settings;
  private final AtomicReference<ConfigurableJWTProcessor<SecurityContext>> processor = new AtomicReference<>();

  /**
   * Reads the keys of {@code settings}.
   *
   * @throws IllegalArgumentException naming the file or URL and what is wrong with it
   */
  public JwtAccess(JwtSettings settings) {
    this.settings = settings;
    reload();
  }

  /**
   * Reads the key files again (for SIGHUP); a URL's keys are refreshed by their cache.
   *
   * @throws IllegalArgumentException naming the file and what is wrong with it; the keys in use stay
   */
  public void reload() {
    ConfigurableJWTProcessor<SecurityContext> next = new DefaultJWTProcessor<>();
    next.setJWSKeySelector(new JWSVerificationKeySelector<>(settings.jwks().isPresent() ? SIGNED : HMAC, keys()));
    JWTClaimsSet.Builder exact = new JWTClaimsSet.Builder();
    settings.issuer().ifPresent(exact::issuer);
    DefaultJWTClaimsVerifier<SecurityContext> claims = new DefaultJWTClaimsVerifier<>(
        settings.audience().map(Set::of).orElse(null), exact.build(), Set.of("sub", "exp"), null);
    claims.setMaxClockSkew(JwtSettings.CLOCK_SKEW_SECONDS);
    next.setJWTClaimsSetVerifier(claims);
    processor.set(next);
  }

  /** Whether checking a token may wait on the network: the keys come from a JWKS URL. */
  boolean fetchesKeys() {
    return settings.jwks().filter(jwks -> jwks.startsWith("https://") || jwks.startsWith("http://")).isPresent();
  }

  private JWKSource<SecurityContext> keys() {
    if (settings.hmacSecret().isPresent()) {
      Path file = settings.hmacSecret().get();
      byte[] secret = read(file, "--jwt-hmac-secret");
      if (secret.length < 32) {
        throw new IllegalArgumentException("the JWT HMAC secret " + file + " has " + secret.length
            + " bytes; HS256 needs at least 32: make one with: head -c 32 /dev/urandom > " + file);
      }
      return new ImmutableSecret<>(secret);
    }
    String jwks = settings.jwks().get();
    if (fetchesKeys()) {
      try {
        int timeout = Math.toIntExact(settings.jwksTimeout().toMillis());
        return JWKSourceBuilder.<SecurityContext>create(URI.create(jwks).toURL(),
            new DefaultResourceRetriever(timeout, timeout, JWKSourceBuilder.DEFAULT_HTTP_SIZE_LIMIT)).build();
      } catch (MalformedURLException | IllegalArgumentException e) {
        throw new IllegalArgumentException("--jwt-jwks " + jwks + " is not a URL: " + e.getMessage(), e);
      }
    }
    Path file = Path.of(jwks);
    try {
      JWKSet set = JWKSet.parse(new String(read(file, "--jwt-jwks"), java.nio.charset.StandardCharsets.UTF_8));
      if (set.getKeys().isEmpty()) {
        throw new IllegalArgumentException("the JWKS file " + file + " holds no key: no token could be verified");
      }
      return new ImmutableJWKSet<>(set.toPublicJWKSet());
    } catch (ParseException e) {
      throw new IllegalArgumentException("the JWKS file " + file + " is not a JWK set ({\"keys\": [...]}): "
          + e.getMessage(), e);
    }
  }

  private static byte[] read(Path file, String flag) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new IllegalArgumentException(flag + ": cannot read " + file + ": " + e, e);
    }
  }

  /** True when {@code token} has the shape of a JWT (three dot-separated parts), so it is checked here. */
  static boolean looksLikeJwt(String token) {
    int first = token.indexOf('.');
    return first > 0 && token.indexOf('.', first + 1) > first + 1 && token.chars().filter(c -> c == '.').count() == 2;
  }

  /** The caller {@code token} names: granted what its claim says until it expires, or refused saying why. */
  Caller caller(String token, String anonymous) {
    JWTClaimsSet claims;
    try {
      claims = processor.get().process(token, null);
    } catch (Exception e) {
      // nimbus's reasons ("Expired JWT", "Invalid signature", "JWT audience rejected") never quote the token.
      return Caller.refused(anonymous, "the access token (a JWT) was refused: " + e.getMessage());
    }
    String principal = "jwt " + claims.getSubject();
    List<AccessTokens.Grant> grants;
    try {
      grants = new GrantsClaim(settings.grantsClaim()).grants(claims.getClaim(settings.grantsClaim()));
    } catch (GrantsClaim.Malformed e) {
      return Caller.refused(principal, e.getMessage());
    }
    return Caller.granted(principal, grants, Optional.of(claims.getExpirationTime().toInstant()));
  }
}
