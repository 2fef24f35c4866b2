package dev.feedstore.server.internal.errors;

/**
 * A call without a usable access token ({@code UNAUTHENTICATED}), or with one that does not allow
 * what it asks ({@code PERMISSION_DENIED}). Nothing has been done when it is thrown.
 */
public final class AccessDeniedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final boolean authenticated;

  public AccessDeniedException(boolean authenticated, String message) {
    super(message);
    this.authenticated = authenticated;
  }

  /** True when the caller has a known token that does not allow this (PERMISSION_DENIED). */
  boolean authenticated() {
    return authenticated;
  }
}
