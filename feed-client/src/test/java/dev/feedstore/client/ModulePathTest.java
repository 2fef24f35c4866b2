package dev.feedstore.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.SpaceId;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.testing.JavaProcess;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library's {@code module-info} as a user on the module path meets it: a small module that
 * {@code requires dev.feedstore.client} compiles against the library's exports alone and, run with
 * nothing on the class path (feed-client and its own dependencies on the module path, as the build
 * writes them to {@code target/runtime-classpath.txt}), opens a replica, appends, syncs with a real
 * server, reads back and keeps appends in flight; a module that imports the library's internals, or
 * the sync engine it shares with feed-core, does not compile.
 */
class ModulePathTest {
  /** A user's module: everything it imports is exported to it. */
  private static final Map<String, String> CONSUMER = Map.of(
      "module-info.java", """
          module feedstore.consumer {
            requires dev.feedstore.client;
          }
          """,
      "feedstore/consumer/Consumer.java", """
          package feedstore.consumer;

          import dev.feedstore.client.AppendReceipt;
          import dev.feedstore.client.Appender;
          import dev.feedstore.client.ConnectOptions;
          import dev.feedstore.client.Replica;
          import dev.feedstore.client.SyncSession;
          import dev.feedstore.core.ActorId;
          import dev.feedstore.core.Block;
          import dev.feedstore.core.BlockData;
          import dev.feedstore.core.BlockKey;
          import dev.feedstore.core.FeedId;
          import dev.feedstore.core.Replication;
          import dev.feedstore.core.Sequence;
          import dev.feedstore.core.SpaceId;
          import java.nio.file.Path;
          import java.time.Duration;
          import java.util.List;
          import java.util.Optional;

          public final class Consumer {
            public static void main(String[] args) throws Exception {
              SpaceId space = SpaceId.of("team");
              try (Replica replica = Replica.open(Path.of("consumer.db"), ActorId.of("consumer"))) {
                FeedId feed = replica.createFeed(space, Optional.empty(), Replication.fullHistory());
                replica.append(space, feed, BlockData.utf8("from a module"));
                try (SyncSession sync = replica.connect(args[0], ConnectOptions.DEFAULTS)) {
                  System.out.println("synced " + sync.awaitSynced(Duration.ofSeconds(30)));
                }
                Block read = replica.read(space, feed).get(0);
                System.out.println("read " + read.data().toStringUtf8() + " at " + read.position().value());
              }
              try (Appender appender = Appender.newBuilder(args[0], ConnectOptions.DEFAULTS).build()) {
                Block block = Block.unpositioned(BlockKey.of(FeedId.generate(), ActorId.of("writer"), Sequence.FIRST),
                    Optional.empty(), 0L, BlockData.utf8("appended in flight"));
                AppendReceipt receipt = appender.await(appender.append(space, Optional.empty(), List.of(block)));
                System.out.println("appended at " + receipt.positions().get(0).value());
              }
              System.out.println("module " + Replica.class.getModule().getName() + " exports internal "
                  + Replica.class.getModule().isExported("dev.feedstore.client.internal"));
            }
          }
          """);

  /** A module that reaches into the library. */
  private static final Map<String, String> INTRUDER = Map.of(
      "module-info.java", """
          module feedstore.intruder {
            requires dev.feedstore.client;
          }
          """,
      "feedstore/intruder/Intruder.java", """
          package feedstore.intruder;

          public final class Intruder {
            Object access = dev.feedstore.client.internal.ClientAccess.get();
            Class<?> sync = dev.feedstore.core.sync.SpaceSync.class;
          }
          """);

  @TempDir Path dir;

  @Test
  void aModuleThatRequiresTheLibraryOpensAReplicaSyncsAndAppendsWithItsExportsAlone() throws Exception {
    String modulePath = libraryModulePath();
    Compiled consumer = compile(dir.resolve("consumer"), CONSUMER, modulePath);
    assertEquals(0, consumer.exitCode(), consumer.output());

    try (RestartableServer authority = RestartableServer.loopback(Files.createDirectories(dir.resolve("server")))) {
      Path work = Files.createDirectories(dir.resolve("app"));
      JavaProcess run = JavaProcess.runModule(work, modulePath + File.pathSeparator + consumer.classes(),
          "feedstore.consumer", "feedstore.consumer.Consumer", authority.address());

      assertEquals(0, run.exitCode(), run.output());
      assertTrue(run.output().contains("synced true"), run.output());
      assertTrue(run.output().contains("read from a module at 1"), run.output());
      assertTrue(run.output().contains("appended at 2"), run.output());
      assertTrue(run.output().contains("module dev.feedstore.client exports internal false"),
          "the library runs as the named module, its internals not exported: " + run.output());
      assertEquals(List.of("from a module", "appended in flight"), authority.blocks(SpaceId.of("team")).stream()
          .map(block -> block.data().toStringUtf8()).toList());
    }
  }

  @Test
  void aModuleThatImportsTheLibrarysInternalsOrTheSyncEngineDoesNotCompile() {
    Compiled intruder = compile(dir.resolve("intruder"), INTRUDER, libraryModulePath());

    assertNotEquals(0, intruder.exitCode(), intruder.output());
    assertTrue(intruder.output().contains("package dev.feedstore.client.internal is declared in module"
        + " dev.feedstore.client, which does not export it"), intruder.output());
    assertTrue(intruder.output().contains("package dev.feedstore.core.sync is declared in module dev.feedstore.core,"
        + " which does not export it to module feedstore.intruder"), intruder.output());
  }

  /** feed-client's classes and its runtime dependencies, as the build resolved them. */
  private static String libraryModulePath() {
    try {
      String modulePath = Path.of("target", "classes").toAbsolutePath() + File.pathSeparator
          + Files.readString(Path.of("target", "runtime-classpath.txt")).strip();
      assertTrue(!modulePath.contains("feed-server") && !modulePath.contains("test-classes"), modulePath);
      return modulePath;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** What javac made of a module's sources: its exit code, its messages and the classes' directory. */
  private record Compiled(int exitCode, String output, Path classes) {}

  private static Compiled compile(Path root, Map<String, String> sources, String modulePath) {
    try {
      // An empty class path: in this process javac would otherwise read the tests' class path too.
      List<String> args = new ArrayList<>(List.of("--module-path", modulePath, "--class-path",
          Files.createDirectories(root.resolve("no-class-path")).toString(), "-d"));
      Path classes = Files.createDirectories(root.resolve("classes"));
      args.add(classes.toString());
      for (Map.Entry<String, String> source : sources.entrySet()) {
        Path file = root.resolve("src").resolve(source.getKey());
        Files.createDirectories(file.getParent());
        Files.writeString(file, source.getValue());
        args.add(file.toString());
      }
      ByteArrayOutputStream messages = new ByteArrayOutputStream();
      int exitCode = ToolProvider.getSystemJavaCompiler().run(null, messages, messages, args.toArray(String[]::new));
      return new Compiled(exitCode, messages.toString(StandardCharsets.UTF_8), classes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
