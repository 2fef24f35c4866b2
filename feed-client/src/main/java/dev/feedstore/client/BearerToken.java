package dev.feedstore.client;

import dev.feedstore.proto.WireHeaders;
import io.grpc.CallCredentials;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * An access token sent with every call as {@code authorization: Bearer TOKEN}, for an authority
 * started with access tokens. Give it to the channel, so that the channel stays a {@code
 * ManagedChannel} (its reconnection backoff is reset when the session retries):
 *
 * <pre>{@code
 * ManagedChannel channel = Grpc.newChannelBuilder("feeds.example.com:7070",
 *     CompositeChannelCredentials.create(TlsChannelCredentials.create(), BearerToken.of(token))).build();
 * }</pre>
 *
 * <p>It is sent over plain text too; use TLS wherever the network is not trusted. Immutable.
 */
public final class BearerToken extends CallCredentials {
  private final String token;

  private BearerToken(String token) {
    this.token = token;
  }

  /**
   * The credentials of {@code token}.
   *
   * @throws IllegalArgumentException if the token is empty or not printable ASCII without spaces
   */
  public static BearerToken of(String token) {
    Objects.requireNonNull(token, "token");
    if (token.isEmpty() || !token.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
      throw new IllegalArgumentException("an access token must be 1 or more printable ASCII characters without"
          + " spaces (it travels in an HTTP/2 header)");
    }
    return new BearerToken(token);
  }

  @Override
  public void applyRequestMetadata(RequestInfo requestInfo, Executor appExecutor, MetadataApplier applier) {
    applier.apply(WireHeaders.bearer(token));
  }

  @Override
  public String toString() {
    return "BearerToken[***]";
  }
}
