package dev.feedstore.client;

import dev.feedstore.client.internal.BearerHeader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * How {@link Replica#connect(String, ConnectOptions)} reaches an authority: plain text or TLS, an
 * access token, keepalive (how soon a dead link is noticed), and the session's {@link
 * SyncSession.Options}. Immutable.
 *
 * <pre>{@code
 * ConnectOptions options = ConnectOptions.newBuilder()
 *     .tls()                                  // the system's certificate authorities
 *     .token(() -> tokenStore.current())      // asked for every call, so a new token is used at once
 *     .build();
 * }</pre>
 */
public final class ConnectOptions {
  /**
   * 15 s: a connection that received nothing for this long is pinged. With {@link
   * #DEFAULT_KEEPALIVE_TIMEOUT} a silent link (the server vanished, a NAT dropped the connection)
   * is noticed within 25 s.
   */
  public static final Duration DEFAULT_KEEPALIVE = Duration.ofSeconds(15);
  /** 10 s: how long a ping may go unanswered before the connection is closed as dead. */
  public static final Duration DEFAULT_KEEPALIVE_TIMEOUT = Duration.ofSeconds(10);
  /** gRPC's shortest client keepalive; it would raise a shorter one silently, so it is refused here. */
  public static final Duration MIN_KEEPALIVE = Duration.ofSeconds(10);
  /** Plain text, no token, the default keepalive and session options. */
  public static final ConnectOptions DEFAULTS = newBuilder().build();

  private final boolean tls;
  private final Optional<Path> trustedCertificates;
  private final Optional<Supplier<String>> token;
  private final Duration keepalive;
  private final Duration keepaliveTimeout;
  private final SyncSession.Options session;

  private ConnectOptions(Builder builder) {
    this.tls = builder.tls;
    this.trustedCertificates = builder.trustedCertificates;
    this.token = builder.token;
    this.keepalive = builder.keepalive;
    this.keepaliveTimeout = builder.keepaliveTimeout;
    this.session = builder.session;
  }

  /** A builder of options, starting from the defaults. */
  public static Builder newBuilder() {
    return new Builder();
  }

  /** A builder starting from these options. */
  public Builder toBuilder() {
    Builder builder = new Builder();
    builder.tls = tls;
    builder.trustedCertificates = trustedCertificates;
    builder.token = token;
    builder.keepalive = keepalive;
    builder.keepaliveTimeout = keepaliveTimeout;
    builder.session = session;
    return builder;
  }

  /** Whether the channel speaks TLS (otherwise plain-text HTTP/2, the server's default). */
  public boolean tls() {
    return tls;
  }

  /** The certificates trusted for TLS instead of the system's (a private CA, a self-signed server). */
  public Optional<Path> trustedCertificates() {
    return trustedCertificates;
  }

  /** Where each call's access token comes from, if the authority requires one. */
  public Optional<Supplier<String>> token() {
    return token;
  }

  /** How long a connection may receive nothing before it is pinged. */
  public Duration keepalive() {
    return keepalive;
  }

  /** How long a ping may go unanswered before the connection is closed as dead. */
  public Duration keepaliveTimeout() {
    return keepaliveTimeout;
  }

  /** The options of the session these options open. */
  public SyncSession.Options session() {
    return session;
  }

  @Override
  public String toString() {
    return "ConnectOptions[" + (tls ? "tls" + trustedCertificates.map(p -> " trusting " + p).orElse("") : "plain text")
        + (token.isPresent() ? ", token" : "") + ", keepalive " + keepalive + "/" + keepaliveTimeout + ", " + session + "]";
  }

  /** Collects options; {@link #build} checks them. Not thread-safe. */
  public static final class Builder {
    private boolean tls;
    private Optional<Path> trustedCertificates = Optional.empty();
    private Optional<Supplier<String>> token = Optional.empty();
    private Duration keepalive = DEFAULT_KEEPALIVE;
    private Duration keepaliveTimeout = DEFAULT_KEEPALIVE_TIMEOUT;
    private SyncSession.Options session = SyncSession.Options.DEFAULTS;

    private Builder() {}

    /** Plain-text HTTP/2 (the default): for a server on loopback or a trusted network. */
    public Builder plaintext() {
      tls = false;
      trustedCertificates = Optional.empty();
      return this;
    }

    /** TLS, trusting the system's certificate authorities. */
    public Builder tls() {
      tls = true;
      trustedCertificates = Optional.empty();
      return this;
    }

    /** TLS, trusting the certificates in {@code caCertificates} (PEM) instead: a private CA or a self-signed server. */
    public Builder tls(Path caCertificates) {
      tls = true;
      trustedCertificates = Optional.of(Objects.requireNonNull(caCertificates, "caCertificates"));
      return this;
    }

    /** Sends {@code value} as the access token of every call ({@code authorization: Bearer TOKEN}). */
    public Builder token(String value) {
      BearerHeader.check(value); // checked now, not at the first call
      return token(() -> value);
    }

    /**
     * Sends the token {@code supplier} gives as the access token of every call: it is asked for
     * every call (keep it cheap), so a replaced token is used at once, and what the authority
     * refused to the old one is tried again.
     */
    public Builder token(Supplier<String> supplier) {
      token = Optional.of(Objects.requireNonNull(supplier, "supplier"));
      return this;
    }

    /**
     * Pings a connection that received nothing for {@code time}, and closes it as dead when a ping
     * is not answered within {@code timeout}; the session then reports offline and reconnects. The
     * authority must permit pings this often ({@code permit-keepalive-ms}, 10 s by default).
     *
     * @throws IllegalArgumentException if {@code time} is under {@link #MIN_KEEPALIVE} or {@code
     *     timeout} is not positive
     */
    public Builder keepalive(Duration time, Duration timeout) {
      if (time.compareTo(MIN_KEEPALIVE) < 0) {
        throw new IllegalArgumentException("keepalive must be at least " + MIN_KEEPALIVE.toSeconds()
            + " s (gRPC's shortest client keepalive), was " + time);
      }
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("keepalive timeout must be > 0, was " + timeout);
      }
      keepalive = time;
      keepaliveTimeout = timeout;
      return this;
    }

    /** The session's options: deadlines, backoff, refusal retries. */
    public Builder session(SyncSession.Options value) {
      session = Objects.requireNonNull(value, "session");
      return this;
    }

    /** The options built so far. */
    public ConnectOptions build() {
      return new ConnectOptions(this);
    }
  }
}
