package dev.feedstore.client.internal;

/**
 * The rule an access token follows to travel as {@code authorization: Bearer TOKEN} in an HTTP/2
 * header, checked where a token is given (the connection options) and again before each call
 * (a token a supplier gives). Stateless and thread-safe.
 */
public final class BearerHeader {
  private BearerHeader() {
  }

  /**
   * Returns {@code token} if it can travel in the header.
   *
   * @throws IllegalArgumentException if it is null, empty or not printable ASCII without spaces
   */
  public static String check(String token) {
    if (token == null || token.isEmpty() || !token.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
      throw new IllegalArgumentException("an access token must be 1 or more printable ASCII characters without"
          + " spaces (it travels in an HTTP/2 header)");
    }
    return token;
  }
}
