package dev.feedstore.bench;

import dev.feedstore.client.Appender;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.sync.AppendReply;
import dev.feedstore.proto.WireMapping;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import io.grpc.ManagedChannel;
import java.nio.file.Path;
import java.util.Optional;

/**
 * One writer at batch 1 on loopback, in the same run: one Append at a time (a round trip per block)
 * beside the library's {@link Appender} keeping {@value Appender#DEFAULT_MAX_CALLS_IN_FLIGHT} calls in
 * flight on one connection. Each case starts from a fresh database file, warms up, then counts the
 * blocks acknowledged (committed) in a fixed time. Not thread-safe.
 */
final class PipelineBench {
  private final BenchOptions options;
  private final ResultTable table;

  PipelineBench(BenchOptions options, ResultTable table) {
    this.options = options;
    this.table = table;
  }

  void run() {
    double oneAtATime = oneAtATime();
    double pipelined = pipelined(Appender.DEFAULT_MAX_CALLS_IN_FLIGHT);
    table.add("pipeline.batch1.one_at_a_time", oneAtATime, "blocks/s");
    table.add("pipeline.batch1.in_flight" + Appender.DEFAULT_MAX_CALLS_IN_FLIGHT, pipelined, "blocks/s", oneAtATime,
        ResultTable.Target.NONE);
    Progress.say("pipeline batch 1: %.0f blocks/s one at a time, %.0f blocks/s with %d in flight", oneAtATime,
        pipelined, Appender.DEFAULT_MAX_CALLS_IN_FLIGHT);
    peer(pipelined);
    table.note("pipeline.*: one client, batch 1 (256-byte blocks, " + AppendWorkload.FEEDS + " feeds of one space"
        + " taking turns), each block acknowledged once committed; one_at_a_time waits for each answer (unary"
        + " Append), in_flightN keeps N calls in flight on one AppendStream (Appender); baseline = one_at_a_time;"
        + " " + options.appendWarmupSeconds() + " s warm-up, " + options.appendSeconds() + " s measured per case,"
        + " fresh file per case");
  }

  /**
   * NATS JetStream's asynchronous publish with as many in flight, measured here and now, as the
   * baseline of a row that holds the pipelined figure to it; a note when no {@code nats-server} is on
   * the {@code PATH}.
   */
  private void peer(double pipelined) {
    int inFlight = Appender.DEFAULT_MAX_CALLS_IN_FLIGHT;
    Optional<Path> program = NatsPeer.find();
    if (program.isEmpty()) {
      table.note("pipeline.vs_nats: not measured, no nats-server on the PATH (Debian: apt-get install nats-server)");
      return;
    }
    double nats;
    try {
      nats = NatsPeer.publishRate(program.get(), options.dir(), inFlight, options.appendWarmupSeconds(),
          options.appendSeconds());
    } catch (Exception e) {
      throw new IllegalStateException("measuring NATS JetStream with " + program.get() + ": " + e, e);
    }
    table.add("pipeline.nats_jetstream.in_flight" + inFlight, nats, "msgs/s");
    table.add("pipeline.vs_nats.in_flight" + inFlight, pipelined, "blocks/s", nats, ResultTable.Target.atLeastRatio(1));
    Progress.say("pipeline batch 1: NATS JetStream %.0f msgs/s with %d in flight", nats, inFlight);
    table.note("pipeline.nats_jetstream.*: the peer in the same run: " + program.get() + " -js ("
        + NatsPeer.version(program.get()) + ") on loopback (file storage, which acknowledges without an fsync per"
        + " message; the store acknowledges after a durable commit), its Java"
        + " client publishing 256-byte messages asynchronously on " + AppendWorkload.FEEDS + " subjects taking turns,"
        + " at most " + inFlight + " unacknowledged, counted once acknowledged, same warm-up and time;"
        + " pipeline.vs_nats.* = the store's in_flight" + inFlight + " against it");
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

  private double pipelined(int inFlight) {
    AppendWorkload workload = new AppendWorkload(AppendWorkload.Shape.ONE_FEED, 1, 42);
    ManagedChannel channel = options.server().reopen(fresh("in-flight-" + inFlight)).channel();
    try (Appender appender = Appender.newBuilder(channel).maxCallsInFlight(inFlight).build()) {
      return new InFlightRate<AppendReply>(inFlight, () -> {
        AppendRequest request = workload.nextRequest();
        return appender.append(SpaceId.of(request.getSpaceId()), Optional.empty(),
            WireMapping.toDomain(request.getBlocksList()));
      }, appender::await).measure(options.appendWarmupSeconds(), options.appendSeconds());
    } finally {
      BenchServer.shutdown(channel);
    }
  }

  private Path fresh(String label) {
    return options.dir().resolve("pipeline-" + label + ".db");
  }
}
