package dev.feedstore.server.testing;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;

import dev.feedstore.core.store.FeedStore;
import dev.feedstore.proto.WireHeaders;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.server.settings.AccessTokens;
import dev.feedstore.server.FeedServer;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.sqlite.SqliteFeedStore;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.MetadataUtils;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * A feed server on a real SQLite file, reached in-process (or over loopback with {@link
 * Builder#loopback}). Close it after each test; it closes its channel, server and store.
 */
public final class TestServer implements AutoCloseable {
  public final Path file;
  public final SqliteFeedStore sqlite;
  public final CountingFeedStore store;
  public final FeedServer server;
  public final ManagedChannel channel;

  private TestServer(Path file, SqliteFeedStore sqlite, CountingFeedStore store, FeedServer server,
      ManagedChannel channel) {
    this.file = file;
    this.sqlite = sqlite;
    this.store = store;
    this.server = server;
    this.channel = channel;
  }

  /** A server on {@code file} (created if missing). */
  public static Builder on(Path file) {
    return new Builder(file);
  }

  /**
   * Appends blocks {@code from..from+count-1} of actor "a" to {@code feed} of space "s", each with
   * {@code data}, 500 to a request.
   */
  public void appendRange(dev.feedstore.core.FeedId feed, int from, int count, com.google.protobuf.ByteString data) {
    for (int start = from; start < from + count; start += 500) {
      java.util.List<dev.feedstore.proto.v1.Block> batch = new java.util.ArrayList<>();
      for (int i = start; i < Math.min(start + 500, from + count); i++) {
        batch.add(Wire.block(feed, "a", i).toBuilder().setData(data).build());
      }
      blocking().append(Wire.append("s", batch));
    }
  }

  /** A client of the server's HTTP API (built with {@link Builder#http}). */
  public Http http() {
    return Http.on(server.httpPort());
  }

  public FeedSyncGrpc.FeedSyncBlockingStub blocking() {
    return FeedSyncGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  public FeedSyncGrpc.FeedSyncStub async() {
    return FeedSyncGrpc.newStub(channel);
  }

  /** A blocking stub whose calls carry {@code authorization: Bearer token}. */
  public FeedSyncGrpc.FeedSyncBlockingStub blocking(String token) {
    return Calls.blocking(channel(token));
  }

  /** The channel, with {@code authorization: Bearer token} on every call. */
  public Channel channel(String token) {
    return ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(WireHeaders.bearer(token)));
  }

  @Override
  public void close() {
    channel.shutdownNow();
    server.close();
    store.close();
  }

  /** Configures a {@link TestServer}. */
  public static final class Builder {
    private final Path file;
    private ServerSettings settings = ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).build();
    private Clock clock = Clock.systemUTC();
    private boolean loopback;
    private boolean http;
    private AccessTokens accessTokens;
    private dev.feedstore.server.settings.JwtSettings jwt;
    private UnaryOperator<FeedStore> wrap = store -> store;

    private Builder(Path file) {
      this.file = file;
    }

    /** Defaults, but with an hour between ticks so tests tick by hand ({@link FeedServer#tick}). */
    public Builder settings(ServerSettings value) {
      settings = value;
      return this;
    }

    public Builder clock(Clock value) {
      clock = value;
      return this;
    }

    /** Require the bearer tokens {@code tokens} lists. */
    public Builder accessTokens(AccessTokens tokens) {
      accessTokens = tokens;
      return this;
    }

    /** Accept JWTs as {@code settings} say. */
    public Builder jwt(dev.feedstore.server.settings.JwtSettings settings) {
      jwt = settings;
      return this;
    }

    /** Also serve the HTTP API on 127.0.0.1 and a free port ({@link FeedServer#httpPort}). */
    public Builder http() {
      http = true;
      return this;
    }

    /** Serve the store {@code value} makes of the server's counting store (a wrapper that injects faults). */
    public Builder wrap(UnaryOperator<FeedStore> value) {
      wrap = value;
      return this;
    }

    /** Serve over a real socket on 127.0.0.1 and a free port. */
    public Builder loopback() {
      loopback = true;
      return this;
    }

    public TestServer start() {
      SqliteFeedStore sqlite = SqliteFeedStore.open(file);
      CountingFeedStore store = new CountingFeedStore(sqlite);
      try {
        FeedServer.Builder builder = FeedServer.newBuilder(wrap.apply(store)).settings(settings).clock(clock);
        if (accessTokens != null) {
          builder.accessTokens(accessTokens);
        }
        if (http) {
          builder.http("127.0.0.1", 0);
        }
        if (jwt != null) {
          builder.jwt(jwt);
        }
        String name = InProcessServerBuilder.generateName();
        if (loopback) {
          builder.address("127.0.0.1", 0);
        } else {
          builder.serverBuilder(InProcessServerBuilder.forName(name));
        }
        FeedServer server = builder.build().start();
        ManagedChannel channel = loopback
            ? io.grpc.Grpc.newChannelBuilderForAddress("127.0.0.1", server.port(),
                io.grpc.InsecureChannelCredentials.create()).build()
            : InProcessChannelBuilder.forName(name).build();
        return new TestServer(file, sqlite, store, server, channel);
      } catch (IOException e) {
        store.close();
        throw new UncheckedIOException(e);
      }
    }
  }
}
