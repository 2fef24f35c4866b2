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
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

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
    table.note("pipeline.*: one client, batch 1 (256-byte blocks, " + AppendWorkload.FEEDS + " feeds of one space"
        + " taking turns), each block acknowledged once committed; one_at_a_time waits for each answer (unary"
        + " Append), in_flightN keeps N calls in flight on one AppendStream (Appender); baseline = one_at_a_time;"
        + " " + options.appendWarmupSeconds() + " s warm-up, " + options.appendSeconds() + " s measured per case,"
        + " fresh file per case");
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
    try (Appender appender = AuthorityChannel.appender(channel).maxCallsInFlight(inFlight).build()) {
      ArrayDeque<CompletableFuture<AppendReceipt>> unanswered = new ArrayDeque<>();
      AppendBench.Step step = () -> {
        AppendRequest request = workload.nextRequest();
        unanswered.add(appender.append(SpaceId.of(request.getSpaceId()), Optional.empty(),
            WireMapping.toDomain(request.getBlocksList())));
        if (unanswered.size() >= inFlight) {
          appender.await(unanswered.poll());
        }
      };
      AppendBench.runFor(options.appendWarmupSeconds(), step);
      drain(appender, unanswered);
      long start = System.nanoTime();
      long deadline = start + (long) (options.appendSeconds() * 1e9);
      long acknowledged = 0;
      while (System.nanoTime() < deadline) {
        int before = unanswered.size();
        try {
          step.run();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
        acknowledged += before + 1 - unanswered.size();
      }
      acknowledged += drain(appender, unanswered);
      return acknowledged / ((System.nanoTime() - start) / 1e9);
    } finally {
      BenchServer.shutdown(channel);
    }
  }

  /** Waits for every call in flight; returns how many there were. */
  private static int drain(Appender appender, ArrayDeque<CompletableFuture<AppendReceipt>> unanswered) {
    int answered = 0;
    while (!unanswered.isEmpty()) {
      appender.await(unanswered.poll());
      answered++;
    }
    return answered;
  }

  private Path fresh(String label) {
    return options.dir().resolve("pipeline-" + label + ".db");
  }
}
