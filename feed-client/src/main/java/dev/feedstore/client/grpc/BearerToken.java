package dev.feedstore.client.grpc;

import dev.feedstore.client.ConnectOptions;
import dev.feedstore.client.Replica;
import dev.feedstore.client.internal.BearerCredentials;
import dev.feedstore.client.internal.BearerHeader;
import io.grpc.CallCredentials;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * An access token sent with every call as {@code authorization: Bearer TOKEN}, for an authority
 * started with access tokens. {@link Replica#connect(String, ConnectOptions)} adds it from {@link
 * ConnectOptions.Builder#token}; for a channel of your own, give it to the channel, so that the
 * channel stays a {@code ManagedChannel} (its reconnection backoff is reset when the session
 * retries):
 *
 * <pre>{@code
 * ManagedChannel channel = Grpc.newChannelBuilder("feeds.example.com:7070",
 *     CompositeChannelCredentials.create(TlsChannelCredentials.create(), BearerToken.of(token))).build();
 * }</pre>
 *
 * <p>It is sent over plain text too; use TLS wherever the network is not trusted. Immutable.
 */
public final class BearerToken extends CallCredentials {
  private final BearerCredentials credentials;

  private BearerToken(Supplier<String> token) {
    this.credentials = new BearerCredentials(token);
  }

  /**
   * The credentials of {@code token}.
   *
   * @throws IllegalArgumentException if the token is empty or not printable ASCII without spaces
   */
  public static BearerToken of(String token) {
    BearerHeader.check(Objects.requireNonNull(token, "token"));
    return new BearerToken(() -> token);
  }

  /**
   * Credentials whose token {@code supplier} gives for each call (on the channel's executor, so it
   * may read a file), so that a replaced token is used from the next call on. A call whose token is
   * missing or malformed fails with {@code UNAUTHENTICATED} before it is sent.
   */
  public static BearerToken from(Supplier<String> supplier) {
    return new BearerToken(Objects.requireNonNull(supplier, "supplier"));
  }

  @Override
  public void applyRequestMetadata(RequestInfo requestInfo, Executor appExecutor, MetadataApplier applier) {
    credentials.applyRequestMetadata(requestInfo, appExecutor, applier);
  }

  @Override
  public String toString() {
    return "BearerToken[***]";
  }
}
