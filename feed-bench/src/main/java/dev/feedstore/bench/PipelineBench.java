package dev.feedstore.bench;

import dev.feedstore.client.AppendReceipt;
import dev.feedstore.client.Appender;
import dev.feedstore.client.grpc.AuthorityChannel;
import dev.feedstore.core.SpaceId;
import dev.feedstore.proto.WireMapping;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import io.grpc.ManagedChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One writer at batch 1 on loopback, in the same run: one Append at a time (a round trip per block)
 * beside the library's {@link Appender} keeping N calls in flight on one connection, for each N asked
 * for, each beside NATS JetStream's asynchronous publish with as many in flight ({@link NatsPeer}).
 * Each case starts from a fresh database file, warms up, then counts the blocks acknowledged
 * (committed) in a fixed time, with the CPU time per block of the server's process and of the
 * client's (this one). Not thread-safe.
 */
final class PipelineBench {
  private final BenchOptions options;
  private final ResultTable table;
  private final List<Integer> inFlights;
  private final double warmupSeconds;

  /**
   * @param inFlights the calls in flight of the pipelined cases
   * @param warmupSeconds the warm-up of each pipelined case (the server compiles the streaming path in it)
   */
  PipelineBench(BenchOptions options, ResultTable table, List<Integer> inFlights, double warmupSeconds) {
    this.options = options;
    this.table = table;
    this.inFlights = List.copyOf(inFlights);
    this.warmupSeconds = warmupSeconds;
  }

  void run() throws Exception {
    double oneAtATime = oneAtATime();
    table.add("pipeline.batch1.one_at_a_time", oneAtATime, "blocks/s");
    Progress.say("pipeline batch 1: %.0f blocks/s one at a time", oneAtATime);
    Optional<Path> nats = NatsPeer.find();
    for (int inFlight : inFlights) {
      InFlightRate.Measured store = pipelined(inFlight);
      table.add("pipeline.batch1.in_flight" + inFlight, store.rate(), "blocks/s", oneAtATime, ResultTable.Target.NONE);
      table.add("pipeline.server_cpu_per_block.in_flight" + inFlight, store.serverCpuMicrosPerCall(), "us");
      table.add("pipeline.client_cpu_per_block.in_flight" + inFlight, store.clientCpuMicrosPerCall(), "us");
      double raw = AppendBench.raw(options, AppendWorkload.Shape.INTERLEAVED, inFlight);
      table.add("pipeline.raw_sqlite.rows_per_commit" + inFlight, raw, "rows/s");
      Progress.say("pipeline batch 1: %.0f blocks/s with %d in flight; raw SQLite %.0f rows/s with as many per"
          + " commit", store.rate(), inFlight, raw);
      nats.ifPresent(program -> peer(program, inFlight, store.rate()));
    }
    if (nats.isEmpty()) {
      table.note("pipeline.vs_nats: not measured, no nats-server on the PATH (Debian: apt-get install nats-server)");
    } else {
      table.note("pipeline.nats_jetstream.*: the peer in the same run: " + nats.get() + " -js ("
          + NatsPeer.version(nats.get()) + ") on loopback (file storage, which acknowledges without an fsync per"
          + " message; the store acknowledges after a durable commit), its Java client publishing 256-byte messages"
          + " asynchronously on " + AppendWorkload.FEEDS + " subjects taking turns, at most N unacknowledged, counted"
          + " once acknowledged, same warm-up and time; server_cpu_per_msg is nats-server's CPU time per"
          + " acknowledged message, client_cpu_per_msg this process's; pipeline.vs_nats.in_flightN = the store's"
          + " in_flightN against it");
    }
    table.note("pipeline.*: one client, batch 1 (256-byte blocks, " + AppendWorkload.FEEDS + " feeds of one space"
        + " taking turns), each block acknowledged once committed; one_at_a_time waits for each answer (unary"
        + " Append; " + options.appendWarmupSeconds() + " s warm-up), in_flightN keeps N calls in flight on one"
        + " AppendStream (Appender; the server reads up to " + ChildServer.APPEND_STREAM_WINDOW_CALLS + " ahead,"
        + " append-stream-window; " + warmupSeconds + " s warm-up); baseline = one_at_a_time; "
        + options.appendSeconds() + " s measured per case, fresh file per case; server_cpu_per_block is the"
        + " server process's CPU time per acknowledged block, client_cpu_per_block this process's (the"
        + " appender, on the same cores); raw_sqlite.rows_per_commitN: raw sqlite-jdbc in this process writing"
        + " the same blocks, N per transaction, with the store's schema and settings (WAL, synchronous=FULL): what"
        + " SQLite alone commits on one core in groups as large as the calls in flight (a group of the store's is"
        + " at most that)");
  }

  /** NATS JetStream's asynchronous publish with {@code inFlight} in flight, beside the store's {@code pipelined}. */
  private void peer(Path program, int inFlight, double pipelined) {
    InFlightRate.Measured nats;
    try {
      nats = NatsPeer.publishRate(program, options.dir(), inFlight, warmupSeconds, options.appendSeconds());
    } catch (Exception e) {
      throw new IllegalStateException("measuring NATS JetStream with " + program + ": " + e, e);
    }
    table.add("pipeline.nats_jetstream.in_flight" + inFlight, nats.rate(), "msgs/s");
    table.add("pipeline.nats_jetstream.server_cpu_per_msg.in_flight" + inFlight, nats.serverCpuMicrosPerCall(), "us");
    table.add("pipeline.nats_jetstream.client_cpu_per_msg.in_flight" + inFlight, nats.clientCpuMicrosPerCall(), "us");
    table.add("pipeline.vs_nats.in_flight" + inFlight, pipelined, "blocks/s", nats.rate(),
        ResultTable.Target.atLeastRatio(1));
    Progress.say("pipeline batch 1: NATS JetStream %.0f msgs/s with %d in flight", nats.rate(), inFlight);
  }

  private double oneAtATime() {
    AppendWorkload workload = new AppendWorkload(AppendWorkload.Shape.ONE_FEED, 1, 42);
    ManagedChannel channel = options.server().reopen(fresh("one-at-a-time")).channel();
    try {
      FeedSyncGrpc.FeedSyncBlockingStub stub = FeedSyncGrpc.newBlockingStub(channel);
      AppendBench.runFor(options.appendWarmupSeconds(), () -> stub.append(workload.nextRequest()));
      return AppendBench.runFor(options.appendSeconds(), () -> stub.append(workload.nextRequest()));
    } finally {
      BenchServer.shutdown(channel);
    }
  }

  private InFlightRate.Measured pipelined(int inFlight) {
    AppendWorkload workload = new AppendWorkload(AppendWorkload.Shape.ONE_FEED, 1, 42);
    BenchServer server = options.server().reopen(fresh("in-flight-" + inFlight));
    ManagedChannel channel = server.channel();
    try (Appender appender = AuthorityChannel.appender(channel).maxCallsInFlight(inFlight).build()) {
      return new InFlightRate<AppendReceipt>(inFlight, () -> {
        AppendRequest request = workload.nextRequest();
        return appender.append(SpaceId.of(request.getSpaceId()), Optional.empty(),
            WireMapping.toDomain(request.getBlocksList()));
      }, appender::await).measure(warmupSeconds, options.appendSeconds(), server::cpuNanos);
    } finally {
      BenchServer.shutdown(channel);
    }
  }

  private Path fresh(String label) {
    return options.dir().resolve("pipeline-" + label + ".db");
  }
}
