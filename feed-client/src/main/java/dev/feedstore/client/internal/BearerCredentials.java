package dev.feedstore.client.internal;

import dev.feedstore.proto.WireHeaders;
import io.grpc.CallCredentials;
import io.grpc.Status;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * Sends the token a supplier gives as {@code authorization: Bearer TOKEN} with every call, asking
 * for it on the channel's executor per call (so a replaced token is used from the next call on); a
 * call whose token is missing or malformed ({@link BearerHeader}) fails with {@code UNAUTHENTICATED}
 * before it is sent. The credentials of the channels the library makes, and what the public {@code
 * dev.feedstore.client.grpc.BearerToken} sends. Immutable; thread-safe if the supplier is.
 */
public final class BearerCredentials extends CallCredentials {
  private final Supplier<String> token;

  /** Credentials whose token {@code token} gives for each call. */
  public BearerCredentials(Supplier<String> token) {
    this.token = Objects.requireNonNull(token, "token");
  }

  @Override
  public void applyRequestMetadata(RequestInfo requestInfo, Executor appExecutor, MetadataApplier applier) {
    appExecutor.execute(() -> {
      String current;
      try {
        current = token.get();
        BearerHeader.check(current);
      } catch (RuntimeException e) {
        applier.fail(Status.UNAUTHENTICATED.withDescription("no access token to send: " + e.getMessage()).withCause(e));
        return;
      }
      applier.apply(WireHeaders.bearer(current));
    });
  }

  @Override
  public String toString() {
    return "BearerCredentials[***]";
  }
}
