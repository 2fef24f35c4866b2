package dev.feedstore.core;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.Random;

/**
 * A random token that the authority creates with a space's state and keeps with it. It is the same
 * across restarts and after a restore from backup (a rollback) and new when the store is wiped or
 * replaced (a swap). Replicas compare it with the token they recorded. 1-128 characters of
 * printable ASCII.
 */
public record ServerToken(String value) {
  private static final Random RANDOM = new SecureRandom();

  public ServerToken {
    Text.requirePrintable("serverToken", value);
  }

  public static ServerToken of(String value) {
    return new ServerToken(value);
  }

  /** 128 random bits, base64url without padding (22 characters). */
  public static ServerToken random() {
    return random(RANDOM);
  }

  public static ServerToken random(Random random) {
    byte[] bytes = new byte[16];
    random.nextBytes(bytes);
    return new ServerToken(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
  }

  @Override
  public String toString() {
    return value;
  }
}
