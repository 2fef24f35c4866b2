package dev.feedstore.cli;

import dev.feedstore.client.ConsumerEvent;
import dev.feedstore.client.DurableConsumer;
import dev.feedstore.client.DurableConsumers;
import dev.feedstore.client.StartPoint;
import dev.feedstore.client.grpc.AuthorityChannel;
import dev.feedstore.core.SpaceId;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.WatchRequest;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code feedctl tail}: follows a space, a namespace or feeds live with a Watch stream, printing
 * each block as its transaction commits, until interrupted, until {@code --count} blocks, or until
 * the server ends the stream (a shutdown ends it with {@code UNAVAILABLE}: exit code 3), unless
 * {@code --reconnect} says to wait for the server and resume ({@link LiveTail}). With {@code --durable
 * NAME}, a durable consumer of the library follows the durable subscription of that name (found, or
 * created with the scope given), from its acknowledged position, acknowledging as it prints ({@link
 * DurableTail}).
 */
@Command(name = "tail", sortOptions = false, usageHelpWidth = 100,
    description = {"Follows a space (or some feeds, or a namespace) live: prints blocks as they commit until"
        + " interrupted (Ctrl-C). Starts from now unless --from is given (--from 0: the whole history first)"
        + " or --since (the blocks the server received from that time on first).",
        "Example: feedctl tail --space demo --namespace notes --json"})
final class TailCommand implements Callable<Integer> {
  /** How soon a durable tail with --reconnect tries again after an outage, and at the longest. */
  private static final Duration RECONNECT_FIRST = Duration.ofMillis(200);
  private static final Duration RECONNECT_LONGEST = Duration.ofSeconds(5);

  @Spec CommandSpec spec;

  @Option(names = "--space", required = true, paramLabel = "SPACE", description = "The space.")
  SpaceId space;

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  ScopeOptions scope;

  @Option(names = {"--from", "--after"}, paramLabel = "POSITION",
      description = "Cursor: start after this position (0: the whole history). Default: the space's highest"
          + " position now, so only new blocks are printed.")
  Long from;

  @Option(names = "--since", paramLabel = "TIME", converter = StartTime.class,
      description = "Start with the blocks the server received at or after TIME (ISO-8601 with a zone, e.g."
          + " 2026-12-02T09:30:00Z, or Unix milliseconds), on the server's clock; a time before the space's"
          + " retained history starts at its oldest block. Not with --from or --durable.")
  Instant since;

  @Option(names = "--count", paramLabel = "N", description = "Exit after printing N blocks.")
  Long count;

  @Option(names = "--reconnect", description = "When the server stops or restarts, wait for it and resume after the"
      + " last printed block (also across a restore from a backup, or a replaced store).")
  boolean reconnect;

  @Option(names = "--durable", paramLabel = "NAME",
      description = "Follow the durable subscription of this name (of your choice) in the space, created on first use"
          + " with the scope given (--namespace or --feed): start after its acknowledged position, and acknowledge"
          + " each block once printed. Run again with the same NAME and scope to resume where it stopped. Not with"
          + " --from.")
  String durable;

  @Option(names = "--ack-within-ms", paramLabel = "MS",
      description = "With --durable, when it is created: the subscription expires (and starts from the beginning"
          + " when run again) unless acknowledged within MS milliseconds. The tail acknowledges at least on every"
          + " heartbeat while it runs. Default: the server's subscription TTL (one hour unless set).")
  Long ackWithinMs;

  @Option(names = "--heartbeats", description = "With --json, also print the idle stream's heartbeats.")
  boolean heartbeats;

  @Mixin ServerOptions server;
  @Mixin OutputOptions output;

  @Override
  public Integer call() throws InterruptedException {
    if (from != null) {
      Checks.atLeast("--from", from, 0);
    }
    if (count != null) {
      Checks.atLeast("--count", count, 1);
    }
    StartCursor.checkOne(since, from);
    checkDurable();
    Printer printer = output.printer(spec.commandLine().getOut(), spec.commandLine().getErr());
    try (AuthorityConnection authority = server.connect()) {
      if (durable != null) {
        followDurable(authority, printer);
        return FeedCtl.Exit.OK;
      }
      long cursor = from != null ? from : since != null ? StartCursor.of(authority, space, since, server.server) : highestPosition(authority);
      printer.remark("tailing space " + space + (since != null ? " from " + since : "") + " after position " + cursor
          + " on " + server.server);
      WatchRequest.Builder scopeRequest = WatchRequest.newBuilder().setSpaceId(space.value())
          .addAllFeedIds(ScopeOptions.feedIds(scope));
      ScopeOptions.namespace(scope).ifPresent(scopeRequest::setNamespace);
      new LiveTail(authority, scopeRequest.build(), printer, Optional.ofNullable(count), heartbeats, reconnect)
          .follow(cursor);
    }
    return FeedCtl.Exit.OK;
  }

  private void checkDurable() {
    if (durable == null) {
      if (ackWithinMs != null) {
        throw new CliException("--ack-within-ms is for a durable tail: give --durable NAME too", FeedCtl.Exit.USAGE);
      }
      return;
    }
    if (since != null) {
      throw new CliException("--since cannot be given with --durable, which starts after the subscription's"
          + " acknowledged position", FeedCtl.Exit.USAGE);
    }
    if (from != null) {
      throw new CliException("--from cannot be given with --durable, which starts after the subscription's"
          + " acknowledged position", FeedCtl.Exit.USAGE);
    }
    if (scope == null) {
      throw new CliException("--durable needs a scope: --namespace NAMESPACE or --feed FEED_ID (a durable"
          + " subscription covers feeds or namespaces)", FeedCtl.Exit.USAGE);
    }
    if (ackWithinMs != null) {
      Checks.atLeast("--ack-within-ms", ackWithinMs, 1);
    }
  }

  /**
   * Follows the durable subscription named {@link #durable} with the library's durable consumer,
   * found or made (in place of one that expired), and closes it once done; the consumer sends the
   * acknowledgement of the last printed block before it closes.
   */
  private void followDurable(AuthorityConnection authority, Printer printer) throws InterruptedException {
    DurableConsumers.Builder settings = AuthorityChannel.consumers(authority.channel()).manualAcknowledgement()
        .callDeadline(authority.deadline()).reconnectBackoff(RECONNECT_FIRST, RECONNECT_LONGEST);
    if (ackWithinMs != null) {
      settings.ackWithin(Duration.ofMillis(ackWithinMs));
    }
    DurableTail tail = new DurableTail(printer, space, durable, server.server.toString(), Optional.ofNullable(count),
        heartbeats, reconnect);
    try (DurableConsumers consumers = settings.build()) {
      DurableConsumer consumer = consumers.consume(space, ScopeOptions.of(scope), durable, StartPoint.EARLIEST, tail);
      tail.awaitDone();
      consumer.close();
    }
    if (tail.counted()) {
      return;
    }
    if (tail.lost().isPresent()) {
      throw tail.lost().get() instanceof StatusRuntimeException status ? status
          : new CliException("the connection was lost: " + tail.lost().get(), FeedCtl.Exit.UNREACHABLE);
    }
    throw stopped(tail.end().orElseThrow());
  }

  /** Why a durable tail stopped before its count, as what the command throws. */
  private RuntimeException stopped(ConsumerEvent.End end) {
    if (end instanceof ConsumerEvent.Refused refused) {
      return refused.cause() instanceof StatusRuntimeException status ? status
          : new CliException(refused.code() + ": " + refused.description(), FeedCtl.Exit.REFUSED);
    }
    String why;
    if (end instanceof ConsumerEvent.Unknown) {
      why = "the server does not know the durable subscription '" + durable + "' (its store was replaced): run again"
          + " to start a new one";
    } else if (end instanceof ConsumerEvent.Compacted compacted) {
      why = "the blocks after position " + compacted.after() + " up to " + compacted.floor() + " were removed by"
          + " retention before they were printed (CURSOR_COMPACTED)";
    } else if (end instanceof ConsumerEvent.Expired expired) {
      why = "the durable subscription '" + durable + "' expired after position " + expired.acknowledged();
    } else {
      why = "the durable tail stopped: " + end;
    }
    return new CliException(why, FeedCtl.Exit.REFUSED);
  }

  /** The space's highest position, from a one-block Query. */
  private long highestPosition(AuthorityConnection authority) {
    return authority.query(QueryRequest.newBuilder().setSpaceId(space.value()).setLimit(1)).getMaxPosition();
  }
}
