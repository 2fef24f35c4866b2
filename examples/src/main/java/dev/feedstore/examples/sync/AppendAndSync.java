package dev.feedstore.examples.sync;

import dev.feedstore.client.Registration;
import dev.feedstore.client.Replica;
import dev.feedstore.client.SyncSession;
import dev.feedstore.client.grpc.AuthorityChannel;
import dev.feedstore.core.ActorId;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.FeedInfo;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.examples.Deadline;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * A replica that writes while it syncs: it replicates a namespace, creates a feed of its own in it,
 * appends {@code --count} blocks ({@code ACTOR-0}, {@code ACTOR-1}, ...) one every {@code
 * --interval-ms} whether or not the server is reachable, then waits until it is synced and holds
 * {@code --expect} positioned blocks in the namespace (its own and other replicas'), prints them and
 * exits with 0, or with 1 if that takes longer than {@code --timeout-s}.
 *
 * <p>Output, one line each: {@code feed FEED_ID}; {@code status STATE push=N pull=N} whenever the
 * sync status changes; {@code appended I}; at the end {@code block POSITION FEED ACTOR SEQUENCE DATA}
 * for every block in position order and {@code done}. The end-to-end test runs two of these and
 * kills the server under them.
 */
@Command(name = "append-and-sync", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Appends blocks over time while syncing, then waits until it holds everybody's blocks.")
public final class AppendAndSync implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--server", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:7070",
      description = "The feed server (default: ${DEFAULT-VALUE}).")
  String server;

  @Option(names = "--db", required = true, paramLabel = "FILE", description = "The replica file.")
  Path db;

  @Option(names = "--actor", required = true, description = "The author id of this replica.")
  String actor;

  @Option(names = "--space", defaultValue = "e2e", description = "The space (default: ${DEFAULT-VALUE}).")
  String space;

  @Option(names = "--namespace", defaultValue = "chat", description = "The namespace (default: ${DEFAULT-VALUE}).")
  String namespace;

  @Option(names = "--count", defaultValue = "20", description = "Blocks to append (default: ${DEFAULT-VALUE}).")
  int count;

  @Option(names = "--interval-ms", defaultValue = "100", description = "Pause between appends (default: ${DEFAULT-VALUE}).")
  long intervalMillis;

  @Option(names = "--expect", description = "Blocks of the namespace to wait for (default: --count).")
  Integer expect;

  @Option(names = "--timeout-s", defaultValue = "60", description = "How long to wait for them (default: ${DEFAULT-VALUE}).")
  long timeoutSeconds;

  private PrintWriter out;

  @Override
  public Integer call() throws Exception {
    out = spec.commandLine().getOut();
    SpaceId spaceId = SpaceId.of(space);
    Namespace ns = Namespace.of(namespace);
    int expected = expect != null ? expect : count;
    ManagedChannel channel = Grpc.newChannelBuilder(server, InsecureChannelCredentials.create()).build();
    // Quick retries: the point of this program is to ride out a server restart.
    SyncSession.Options options = SyncSession.Options.DEFAULTS.withBackoff(Duration.ofMillis(50), Duration.ofSeconds(1));
    try (Replica replica = Replica.open(db, ActorId.of(actor));
         SyncSession session = connect(replica, spaceId, ns, channel, options);
         Registration status = session.onStatus(s -> line("status " + s.state() + " push=" + s.toPush() + " pull=" + s.toPull()))) {
      FeedId feed = replica.createFeed(spaceId, Optional.of(ns), Replication.fullHistory());
      line("feed " + feed);
      for (int i = 0; i < count; i++) {
        replica.append(spaceId, feed, BlockData.utf8(actor + "-" + i));
        line("appended " + i);
        Thread.sleep(intervalMillis);
      }
      line("waiting until synced with " + expected + " positioned blocks in namespace " + ns);
      try {
        Deadline.await(expected + " positioned blocks and synced", Duration.ofSeconds(timeoutSeconds),
            () -> session.status().isSynced() && positioned(replica, spaceId, ns).size() >= expected);
      } catch (TimeoutException e) {
        line("timeout: " + e.getMessage() + "; status " + session.status() + ", holding "
            + positioned(replica, spaceId, ns).size());
        return 1;
      }
      for (Block block : positioned(replica, spaceId, ns)) {
        BlockKey key = block.key();
        line("block " + block.position() + " " + key.feedId() + " " + key.actorId() + " " + key.sequence().value()
            + " " + block.data().toStringUtf8());
      }
      line("done");
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    return 0;
  }

  private static SyncSession connect(Replica replica, SpaceId space, Namespace ns, ManagedChannel channel,
      SyncSession.Options options) {
    replica.replicateNamespace(space, ns, true);
    return AuthorityChannel.connect(replica, channel, options);
  }

  /** Every block of the namespace this replica holds, in position order; empty if any is unpositioned. */
  private static List<Block> positioned(Replica replica, SpaceId space, Namespace ns) {
    List<Block> blocks = new ArrayList<>();
    for (FeedInfo info : replica.feeds(space)) {
      if (info.namespace().equals(Optional.of(ns))) {
        blocks.addAll(replica.read(space, info.feedId()));
      }
    }
    if (blocks.stream().anyMatch(b -> !b.isPositioned())) {
      return List.of();
    }
    blocks.sort(Comparator.comparing(Block::position));
    return blocks;
  }

  private synchronized void line(String text) {
    out.println(text);
    out.flush();
  }
}
