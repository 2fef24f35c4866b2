package dev.feedstore.core;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Random;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A token that the authority keeps with a space's state. It is the same across restarts and after
 * a restore from backup (a rollback) and new when the store is wiped or replaced (a swap). Replicas
 * compare it with the token they recorded. 1-128 characters of printable ASCII.
 *
 * <p>An authority derives it from a secret of its store and the space id ({@link #derive}), so that
 * it can report the token a space will have before the space exists, without storing anything.
 * Immutable.
 */
public record ServerToken(String value) {
  private static final Random RANDOM = new SecureRandom();

  /**
   * The token {@code value}.
   *
   * @throws InvalidValueException naming {@code serverToken} if {@code value} is null or not 1-128 characters of
   *     printable ASCII without spaces
   */
  public ServerToken {
    Text.requirePrintable("serverToken", value);
  }

  /** The same as the constructor. */
  public static ServerToken of(String value) {
    return new ServerToken(value);
  }

  /** 128 random bits, base64url without padding (22 characters). */
  public static ServerToken random() {
    return random(RANDOM);
  }

  /** 128 bits from {@code random}, base64url without padding (22 characters); tests pass a seeded one. */
  public static ServerToken random(Random random) {
    byte[] bytes = new byte[16];
    random.nextBytes(bytes);
    return of128Bits(bytes);
  }

  /**
   * The token of {@code spaceId} under {@code secret}: the first 128 bits of HMAC-SHA256(secret,
   * space id in UTF-8), base64url without padding (22 characters). The same secret and space always
   * give the same token; another secret gives another, and the token does not reveal the secret.
   *
   * @throws IllegalArgumentException if the secret is shorter than 16 bytes
   */
  public static ServerToken derive(byte[] secret, SpaceId spaceId) {
    if (secret.length < 16) {
      throw new IllegalArgumentException("a token secret must have at least 16 bytes, had " + secret.length);
    }
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      return of128Bits(Arrays.copyOf(mac.doFinal(spaceId.value().getBytes(StandardCharsets.UTF_8)), 16));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
    }
  }

  private static ServerToken of128Bits(byte[] bytes) {
    return new ServerToken(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
  }

  @Override
  public String toString() {
    return value;
  }
}
