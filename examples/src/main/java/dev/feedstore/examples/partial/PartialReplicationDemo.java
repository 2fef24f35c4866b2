package dev.feedstore.examples.partial;

import dev.feedstore.client.Replica;
import dev.feedstore.client.SyncSession;
import dev.feedstore.client.grpc.AuthorityChannel;
import dev.feedstore.core.ActorId;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Replication;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.examples.Deadline;
import dev.feedstore.examples.DemoSetup;
import io.grpc.ManagedChannel;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Partial replication, side by side: a sensor hub writes three feeds (temperature and humidity in
 * namespace {@code sensors}, a log in namespace {@code logs}); a <em>dashboard</em> replica follows
 * the namespace {@code sensors} with its history, an <em>alarm</em> replica follows only the
 * temperature feed from the live tail ({@link Replication#LATEST}). Each prints what it receives,
 * and a table at the end shows every block the hub wrote and who got it.
 *
 * <p>{@code java -jar examples/target/examples.jar partial} runs against a server of its own on a
 * free loopback port; {@code --server HOST:PORT} uses a running one instead.
 */
@Command(name = "partial", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Partial replication: one replica follows a namespace, another one feed's live tail.")
public final class PartialReplicationDemo implements Callable<Integer> {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final Namespace SENSORS = Namespace.of("sensors");
  private static final Namespace LOGS = Namespace.of("logs");

  @Spec CommandSpec spec;

  @Option(names = "--server", paramLabel = "HOST:PORT",
      description = "A running feed server (default: start one on a free loopback port, in a temporary directory).")
  String server;

  @Option(names = "--space", defaultValue = "plant-1", description = "The space (default: ${DEFAULT-VALUE}).")
  String spaceName;

  private final Map<FeedId, String> names = new LinkedHashMap<>();

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    SpaceId space = SpaceId.of(spaceName);
    try (DemoSetup authority = DemoSetup.start(Optional.ofNullable(server))) {
      Path dir = authority.dir();
      ManagedChannel channel = authority.channel();
      try (Replica hub = Replica.open(dir.resolve("hub.db"), ActorId.of("sensor-hub"));
           Replica dashboard = Replica.open(dir.resolve("dashboard.db"), ActorId.of("dashboard"));
           Replica alarm = Replica.open(dir.resolve("alarm.db"), ActorId.of("alarm"));
           SyncSession hubSync = AuthorityChannel.connect(hub, channel)) {
        FeedId temperature = feed(hub, space, SENSORS, "temperature");
        FeedId humidity = feed(hub, space, SENSORS, "humidity");
        FeedId log = feed(hub, space, LOGS, "hub-log");
        out.println("sensor-hub writes feeds temperature and humidity (namespace sensors) and hub-log (namespace"
            + " logs) on " + authority.address() + ", space " + space);
        writeRound(hub, space, 1, temperature, humidity, log);
        awaitSent(hub, hubSync, space, "the hub's history reached the server");
        out.println("round 1 written and synced: this is the history the followers find when they start.");
        out.println();

        dashboard.replicateNamespace(space, SENSORS, true);
        alarm.replicate(space, temperature, Replication.LATEST);
        out.println("dashboard follows namespace 'sensors' with its history: replicateNamespace(space, sensors, true)");
        out.println("alarm     follows feed temperature from the live tail:   replicate(space, temperature, LATEST)");
        try (Follower dashboardSeen = new Follower("dashboard", dashboard, space, Scope.namespace(SENSORS), out, this::describe);
             Follower alarmSeen = new Follower("alarm", alarm, space, Scope.feeds(Set.of(temperature)), out, this::describe);
             SyncSession dashboardSync = AuthorityChannel.connect(dashboard, channel);
             SyncSession alarmSync = AuthorityChannel.connect(alarm, channel)) {
          await(dashboardSync, "the dashboard caught up");
          await(alarmSync, "the alarm resolved the live tail");
          for (int round = 2; round <= 3; round++) {
            out.println("round " + round + ": sensor-hub writes a block to each feed");
            writeRound(hub, space, round, temperature, humidity, log);
            awaitSent(hub, hubSync, space, "round " + round + " reached the server");
          }
          Deadline.await("the dashboard has 6 sensor blocks and the alarm 2 temperature blocks", TIMEOUT,
              () -> ours(dashboardSeen.received()).size() == 6 && alarmSeen.received().size() == 2);
          out.println();
          printTable(out, hub.read(space, temperature), hub.read(space, humidity), hub.read(space, log),
              dashboardSeen.received(), alarmSeen.received());
        }
      }
    }
    return 0;
  }

  private FeedId feed(Replica hub, SpaceId space, Namespace namespace, String name) {
    FeedId feed = hub.createFeed(space, Optional.of(namespace), Replication.fullHistory());
    names.put(feed, name);
    return feed;
  }

  private static void writeRound(Replica hub, SpaceId space, int round, FeedId temperature, FeedId humidity, FeedId log) {
    hub.append(space, temperature, BlockData.utf8(String.format("%.1f C", 19.5 + round)));
    hub.append(space, humidity, BlockData.utf8((38 + 2 * round) + " %"));
    hub.append(space, log, BlockData.utf8("round " + round + " measured"));
  }

  private static void await(SyncSession session, String what) throws Exception {
    if (!session.awaitSynced(TIMEOUT)) {
      throw new java.util.concurrent.TimeoutException("not within " + TIMEOUT.toSeconds() + " s: " + what
          + " (status: " + session.status() + ")");
    }
  }

  /**
   * Waits until every block the hub wrote has a position. The session's status alone is not enough
   * right after an append: it can still say synced from before the append until the session has
   * looked at the new block.
   */
  private void awaitSent(Replica hub, SyncSession session, SpaceId space, String what) throws Exception {
    Deadline.await(what + " (status: " + session.status() + ")", TIMEOUT, () -> names.keySet().stream()
        .allMatch(feed -> hub.read(space, feed).stream().allMatch(Block::isPositioned)));
  }

  private List<Block> ours(List<Block> blocks) {
    return blocks.stream().filter(b -> names.containsKey(b.feedId())).toList();
  }

  private String describe(Block block) {
    return names.getOrDefault(block.feedId(), block.feedId().value()) + "  " + block.data().toStringUtf8();
  }

  private void printTable(PrintWriter out, List<Block> temperature, List<Block> humidity, List<Block> log,
      List<Block> dashboard, List<Block> alarm) {
    out.printf("%-8s  %-34s  %-9s  %s%n", "position", "block the hub wrote", "dashboard", "alarm");
    Set<Object> atDashboard = Set.copyOf(dashboard.stream().map(Block::key).toList());
    Set<Object> atAlarm = Set.copyOf(alarm.stream().map(Block::key).toList());
    java.util.stream.Stream.of(temperature, humidity, log).flatMap(List::stream)
        .sorted(Comparator.comparing(Block::position))
        .forEach(block -> out.printf("%8d  %-34s  %-9s  %s%n", block.position().value(), describe(block),
            atDashboard.contains(block.key()) ? "received" : "-", atAlarm.contains(block.key()) ? "received" : "-"));
    out.println();
    out.println("The dashboard got every sensors block, history included, and nothing of namespace logs; the");
    out.println("alarm got only the temperature blocks written after it started following.");
    out.flush();
  }
}
