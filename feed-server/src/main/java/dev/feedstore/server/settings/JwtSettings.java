package dev.feedstore.server.settings;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How the server checks bearer tokens that are JWTs: the keys that may sign them (a JWKS file or
 * URL, or an HMAC secret file), the issuer and audience they must name, and the claim that holds
 * their grants. A token is accepted when its signature verifies with one of the keys, it names the
 * issuer and audience (when given), it has a subject ({@code sub}, the principal its limits count
 * against) and an expiry ({@code exp}) that has not passed, and its {@code nbf}, if any, has;
 * {@value #CLOCK_SKEW_SECONDS} s of clock skew are allowed. Open streams end when the token expires.
 *
 * <p>The grants claim is an object of space lists, {@code "*"} meaning every space; {@code write}
 * allows reading too, and {@code admin} writing and removing history (Compact, SetRetention):
 *
 * <pre>{@code
 * "feedstore": {"read": ["*"], "write": ["team", "ops"]}
 * }</pre>
 *
 * @param jwks a JWKS: a file path, or an {@code http(s)://} URL fetched and cached (keys rotate:
 *     an unknown key id refetches it)
 * @param hmacSecret a file holding the shared secret of HS256/384/512 tokens (at least 32 bytes)
 * @param issuer the {@code iss} tokens must have, if any
 * @param audience a value {@code aud} must hold, if any
 * @param grantsClaim the name of the claim with the grants
 * @param jwksTimeout how long fetching a JWKS URL may take to connect and again to read its answer
 *     before the token that needed it is refused ({@code --jwt-jwks-timeout-ms})
 */
public record JwtSettings(Optional<String> jwks, Optional<Path> hmacSecret, Optional<String> issuer,
    Optional<String> audience, String grantsClaim, Duration jwksTimeout) {
  /** The claim the grants are read from unless told otherwise. */
  public static final String DEFAULT_GRANTS_CLAIM = "feedstore";
  /** How far the server's clock and the issuer's may differ for {@code exp} and {@code nbf}. */
  public static final int CLOCK_SKEW_SECONDS = 5;
  /** How long a JWKS URL may take to connect and to answer unless told otherwise. */
  public static final Duration DEFAULT_JWKS_TIMEOUT = Duration.ofSeconds(5);

  /** Settings with the default {@link #DEFAULT_JWKS_TIMEOUT}. */
  public JwtSettings(Optional<String> jwks, Optional<Path> hmacSecret, Optional<String> issuer,
      Optional<String> audience, String grantsClaim) {
    this(jwks, hmacSecret, issuer, audience, grantsClaim, DEFAULT_JWKS_TIMEOUT);
  }

  /**
   * The settings as given.
   *
   * @throws NullPointerException naming the component that is null
   * @throws IllegalArgumentException naming the flag when {@code jwksTimeout} is not 1 ms to {@code
   *     Integer.MAX_VALUE} ms, or when not exactly one of {@code jwks} and {@code hmacSecret} is given
   */
  public JwtSettings {
    Objects.requireNonNull(jwks, "jwks");
    Objects.requireNonNull(hmacSecret, "hmacSecret");
    Objects.requireNonNull(issuer, "issuer");
    Objects.requireNonNull(audience, "audience");
    Objects.requireNonNull(grantsClaim, "grantsClaim");
    Objects.requireNonNull(jwksTimeout, "jwksTimeout");
    if (jwksTimeout.toMillis() < 1 || jwksTimeout.toMillis() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("--jwt-jwks-timeout-ms must be from 1 to " + Integer.MAX_VALUE
          + " ms, was " + jwksTimeout.toMillis());
    }
    if (jwks.isPresent() == hmacSecret.isPresent()) {
      throw new IllegalArgumentException("JWT access needs exactly one of --jwt-jwks and --jwt-hmac-secret, got "
          + (jwks.isPresent() ? "both" : "neither"));
    }
  }
}
