package dev.feedstore.server.internal.errors;

/** The server is shutting down and takes no new work; the caller retries, possibly elsewhere. */
public final class ShuttingDownException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ShuttingDownException() {
    super("the server is shutting down; retry (reconnect and resume from your cursor)");
  }
}
