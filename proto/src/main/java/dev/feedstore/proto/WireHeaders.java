package dev.feedstore.proto;

import io.grpc.Metadata;

/** Request headers of the protocol, beside the messages. */
public final class WireHeaders {
  private WireHeaders() {}

  /** The access token of a call to an authority that requires one: {@code Bearer TOKEN}. */
  public static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  /** The scheme before the token in {@link #AUTHORIZATION}, with its space. */
  public static final String BEARER = "Bearer ";

  /** Headers that carry {@code token}. */
  public static Metadata bearer(String token) {
    Metadata headers = new Metadata();
    headers.put(AUTHORIZATION, BEARER + token);
    return headers;
  }
}
