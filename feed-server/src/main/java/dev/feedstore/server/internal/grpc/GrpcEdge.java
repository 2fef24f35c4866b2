package dev.feedstore.server.internal.grpc;

import static dev.feedstore.server.settings.ServerSettings.COMPRESS_MIN_BYTES;
import static dev.feedstore.server.settings.ServerSettings.KEEPALIVE_MS;
import static dev.feedstore.server.settings.ServerSettings.KEEPALIVE_TIMEOUT_MS;
import static dev.feedstore.server.settings.ServerSettings.MAX_MESSAGE_BYTES;
import static dev.feedstore.server.settings.ServerSettings.PERMIT_KEEPALIVE_MS;
import static dev.feedstore.server.settings.ServerSettings.SHUTDOWN_GRACE_MS;

import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.server.internal.access.TlsIdentity;
import dev.feedstore.server.internal.core.ServerCore;
import dev.feedstore.server.settings.ServerSettings;
import io.grpc.InsecureServerCredentials;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.ServerCall;
import io.grpc.ServerCallExecutorSupplier;
import io.grpc.ServerCredentials;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.TlsServerCredentials;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.protobuf.services.ProtoReflectionService;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's gRPC side: the {@code feed.v1.FeedSync} service over a {@link ServerCore}, with the
 * interceptors that tell it each call's connection and caller, count calls in flight, answer a call
 * without exactly one well-formed request ({@link WellFormedRequests}) and count every call by
 * method and status; the standard health service ({@code grpc.health.v1.Health}), which follows
 * the storage's health; and server reflection, so that grpcurl and load balancers work. Served
 * through a {@link ServerBuilder}: a socket of its own ({@link #socket}) or the caller's.
 *
 * <p>Thread-safe.
 */
public final class GrpcEdge {
  /**
   * The service name under which the health service says whether the server serves reads: SERVING
   * while reads work, though writes may fail (a full disk, a read-only file), when the whole server
   * ({@code ""}) and {@code feed.v1.FeedSync} say NOT_SERVING so that writers are routed away.
   */
  public static final String READS_HEALTH = FeedSyncGrpc.SERVICE_NAME + ".Reads";
  private static final Logger LOG = LoggerFactory.getLogger("dev.feedstore.server.FeedServer");
  /** The full names of the Append methods, which run on the transport's threads ({@link #build}). */
  private static final Set<String> APPENDS = Set.of(FeedSyncGrpc.getAppendMethod().getFullMethodName(),
      FeedSyncGrpc.getAppendStreamMethod().getFullMethodName());

  private final Server server;
  private final ServerCore core;
  private final HealthStatusManager health;
  private final InFlightCalls inFlight;
  private final Object healthLock = new Object();

  private GrpcEdge(Server server, ServerCore core, HealthStatusManager health, InFlightCalls inFlight) {
    this.server = server;
    this.core = core;
    this.health = health;
    this.inFlight = inFlight;
    core.onStorageHealth(this::reportHealth);
  }

  /**
   * A plain-text HTTP/2 socket on {@code address} (TLS with the certificate chain and private key of
   * {@code tls}, PEM files, when given), with the keepalive settings.
   *
   * @throws IllegalArgumentException if the TLS files cannot be used, naming the file and the fix
   */
  public static ServerBuilder<?> socket(InetSocketAddress address, ServerSettings settings, Optional<Path[]> tls) {
    return NettyServerBuilder.forAddress(address, credentials(tls))
        .keepAliveTime(settings.get(KEEPALIVE_MS), TimeUnit.MILLISECONDS)
        .keepAliveTimeout(settings.get(KEEPALIVE_TIMEOUT_MS), TimeUnit.MILLISECONDS)
        .permitKeepAliveTime(settings.get(PERMIT_KEEPALIVE_MS), TimeUnit.MILLISECONDS);
  }

  /**
   * The services of {@code core} on a server of {@code builder}, not started. Adds the services,
   * the executors and {@code max-message-bytes} to the builder.
   */
  @SuppressWarnings("deprecation") // v1alpha reflection too, for grpcurl and tools that only speak it
  public static GrpcEdge build(ServerBuilder<?> builder, ServerCore core) {
    if (core.authenticator().mayBlock()) {
      builder.executor(core.requestExecutor());
    } else {
      // Appends block on nothing (FeedSyncService moves those that may to the request executor),
      // so they run on the transport's threads, one hand-off between threads less per call; gRPC
      // finds a call's method on the default executor, so that is the transport's thread too, and
      // every other call moves to the request executor from there.
      builder.directExecutor().callExecutor(new ServerCallExecutorSupplier() {
        @Override
        public <Q, R> Executor getExecutor(ServerCall<Q, R> call, Metadata headers) {
          return APPENDS.contains(call.getMethodDescriptor().getFullMethodName()) ? null : core.requestExecutor();
        }
      });
    }
    InFlightCalls inFlight = new InFlightCalls();
    core.metrics().gauge("feedstore_calls_in_flight", "FeedSync calls running (request handlers and Watch streams).",
        inFlight::count);
    HealthStatusManager health = new HealthStatusManager();
    builder.maxInboundMessageSize(core.settings().get(MAX_MESSAGE_BYTES))
        .addService(feedSync(core, inFlight))
        .addService(health.getHealthService())
        .addService(ProtoReflectionServiceV1.newInstance())
        .addService(ProtoReflectionService.newInstance());
    return new GrpcEdge(builder.build(), core, health, inFlight);
  }

  /**
   * The FeedSync service, with the interceptor that tells it each call's connection, answering a
   * call without exactly one well-formed request with {@code INVALID_ARGUMENT} ({@link
   * WellFormedRequests}), and gzipping large unary responses ({@link ResponseCompression}).
   */
  private static ServerServiceDefinition feedSync(ServerCore core, InFlightCalls inFlight) {
    FeedSyncService service = new FeedSyncService(core.authority(), core.watches(), core.liveQueries(),
        core.rejections(), core.failures(), core.principalLimits(), core.calls(), core.blockAccess(),
        core.requestExecutor());
    return ServerInterceptors.intercept(WellFormedRequests.wrap(
        ServerInterceptors.intercept(service.definition(), new ConnectionInterceptor(), inFlight,
            new AccessInterceptor(core.authenticator()), new ResponseCompression(core.settings().get(COMPRESS_MIN_BYTES))),
        core.rejections()),
        new MetricsInterceptor(core.metrics()));
  }

  private static ServerCredentials credentials(Optional<Path[]> tls) {
    if (tls.isEmpty()) {
      return InsecureServerCredentials.create();
    }
    Path certificateChain = tls.get()[0];
    Path privateKey = tls.get()[1];
    TlsIdentity.check(certificateChain, privateKey);
    try {
      return TlsServerCredentials.create(certificateChain.toFile(), privateKey.toFile());
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("cannot read the TLS certificate chain " + certificateChain
          + " and private key " + privateKey + " (PEM, the key unencrypted PKCS#8): " + e.getMessage(), e);
    }
  }

  /**
   * Binds and starts serving, and says in health what the storage does now.
   *
   * @throws IOException if the address cannot be bound
   */
  public void start() throws IOException {
    server.start();
    reportHealth();
  }

  /**
   * Sets what health says from what the storage does now: the whole server and FeedSync are
   * SERVING while writes and reads work, {@link #READS_HEALTH} while reads work. Runs at start and
   * after every change the storage reports; synchronized, and reading the storage's state inside,
   * so that the last change reported is the one health says.
   */
  private void reportHealth() {
    synchronized (healthLock) {
      boolean reads = core.storageServesReads();
      ServingStatus all = reads && core.storageTakesWrites() ? ServingStatus.SERVING : ServingStatus.NOT_SERVING;
      health.setStatus("", all);
      health.setStatus(FeedSyncGrpc.SERVICE_NAME, all);
      health.setStatus(READS_HEALTH, reads ? ServingStatus.SERVING : ServingStatus.NOT_SERVING);
    }
  }

  /** The port it listens on (the bound one when 0 was asked for); -1 if not a socket. */
  public int port() {
    return server.getPort();
  }

  /** The addresses it listens on. */
  public List<? extends SocketAddress> listenAddresses() {
    return server.getListenSockets();
  }

  /** Health turns NOT_SERVING for good, and new calls are refused; calls in flight go on. */
  public void refuseNewCalls() {
    health.enterTerminalState();
    server.shutdown();
  }

  /**
   * Gives the calls in flight {@code shutdown-grace-ms} to finish, then cancels what is left and
   * waits for the transport to stop. Interrupted, it cancels everything at once and keeps the
   * thread's interrupt.
   */
  public void finishCalls() {
    long grace = core.settings().get(SHUTDOWN_GRACE_MS);
    try {
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(grace);
      boolean terminated = false;
      while (!terminated && inFlight.count() != 0 && System.nanoTime() < deadline) {
        terminated = server.awaitTermination(10, TimeUnit.MILLISECONDS);
      }
      if (!terminated && inFlight.count() != 0) {
        LOG.warn("calls still running after {} ms ({}); cancelling them", grace, SHUTDOWN_GRACE_MS.name());
      }
      // Every call of ours has ended (or the grace is over). The transports get a moment to deliver
      // the statuses just sent (UNAVAILABLE to watchers); what they still hold open after that
      // carries no work, so it is cut rather than waited for.
      long flushDeadline = Math.min(deadline, System.nanoTime() + TimeUnit.SECONDS.toNanos(1));
      while (!terminated && System.nanoTime() < flushDeadline) {
        terminated = server.awaitTermination(10, TimeUnit.MILLISECONDS);
      }
      server.shutdownNow();
      server.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      server.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  /** Stops at once, cancelling every call: after a start that failed. */
  public void stopNow() {
    server.shutdownNow();
  }

  /** Blocks until the server has terminated. */
  public void awaitTermination() throws InterruptedException {
    server.awaitTermination();
  }
}
