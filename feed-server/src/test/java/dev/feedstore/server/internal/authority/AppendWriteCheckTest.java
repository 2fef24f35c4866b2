package dev.feedstore.server.internal.authority;

import static dev.feedstore.server.settings.ServerSettings.STREAMS_SPACE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import dev.feedstore.testing.Await;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.internal.access.Authenticator;
import dev.feedstore.server.internal.access.Caller;
import dev.feedstore.server.internal.append.FeedWriteCheck;
import dev.feedstore.server.internal.errors.AccessDeniedException;
import dev.feedstore.server.internal.errors.ErrorCode;
import dev.feedstore.server.internal.errors.CallRefusal;
import dev.feedstore.server.internal.streams.EndedStreams;
import dev.feedstore.server.settings.AccessTokens;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.GatedFeedStore;
import dev.feedstore.sqlite.SqliteFeedStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An append's caller may write to its feeds as they are stored when its transaction runs: a feed
 * that did not exist when the append arrived, created by an append before it in its group with
 * another namespace, refuses it there (no escalation by racing another writer), and the others of
 * the group commit. Over a real SQLite file, with a write held at a gate so that appends group.
 */
class AppendWriteCheckTest {
  private static final SpaceId SPACE = SpaceId.of("s");

  @TempDir Path dir;
  GatedFeedStore store;
  PositionAuthority authority;
  Caller chatWriter;
  final ExecutorService callers = Executors.newCachedThreadPool();

  @BeforeEach
  void open() throws Exception {
    store = new GatedFeedStore(SqliteFeedStore.open(dir.resolve("feeds.db")));
    authority = new PositionAuthority(store, ServerSettings.DEFAULTS, Clock.systemUTC(),
        new EndedStreams(SpaceId.of(ServerSettings.DEFAULTS.get(STREAMS_SPACE))));
    Path tokens = Files.writeString(dir.resolve("tokens"), AccessTokens.sha256("chat") + " write s namespaces=chat\n");
    chatWriter = new Authenticator(Optional.of(AccessTokens.read(tokens)), Optional.empty())
        .authenticate("Bearer chat", "test");
  }

  @AfterEach
  void close() throws InterruptedException {
    store.open();
    callers.shutdownNow();
    callers.awaitTermination(30, TimeUnit.SECONDS);
    store.close();
  }

  @Test
  void aFeedAnEarlierAppendOfTheGroupCreatesInAnotherNamespaceRefusesTheAppendAloneAndTheOthersCommit()
      throws Exception {
    store.holdNextWrite();
    Future<AppendResult> first = submit("chat", FeedWriteCheck.ANY, TestBlocks.block(TestBlocks.feedId(), "x", 0));
    store.awaitHeld();
    FeedId contested = TestBlocks.feedId();
    FeedId fresh = TestBlocks.feedId();
    Future<AppendResult> creator = submit("notes", FeedWriteCheck.ANY, TestBlocks.block(contested, "n", 0));
    awaitWaiting(1);
    Block racing = TestBlocks.block(contested, "c", 0);
    Future<AppendResult> refused = submit("chat", chatWriter(), racing);
    awaitWaiting(2);
    Future<AppendResult> allowed = submit("chat", chatWriter(), TestBlocks.block(fresh, "c", 0));
    awaitWaiting(3);
    assertEquals(Map.of(), authority.feedNamespaces(SPACE, Set.of(contested)), "the contested feed does not exist yet");
    store.open();

    assertArrayEquals(new long[] {1}, first.get(30, TimeUnit.SECONDS).positions());
    assertArrayEquals(new long[] {2}, creator.get(30, TimeUnit.SECONDS).positions());
    assertArrayEquals(new long[] {3}, allowed.get(30, TimeUnit.SECONDS).positions());
    ExecutionException failure = assertThrows(ExecutionException.class, () -> refused.get(30, TimeUnit.SECONDS));
    AccessDeniedException denied = assertInstanceOf(AccessDeniedException.class, failure.getCause());
    assertEquals(ErrorCode.PERMISSION_DENIED, CallRefusal.of(denied).code());
    assertTrue(denied.getMessage().contains("may not Append to namespace 'notes' of space 's' (feed "
        + contested.value() + ")"), denied.getMessage());
    assertEquals(Map.of(contested, Optional.of(Namespace.of("notes")), fresh, Optional.of(Namespace.of("chat"))),
        authority.feedNamespaces(SPACE, Set.of(contested, fresh)));
    assertEquals(Optional.empty(), store.read(tx -> tx.blocks().find(SPACE, racing.key())), "nothing of it was written");
  }

  @Test
  void anAppendAloneIsCheckedTooAndOneOfAWholeSpaceWriterIsNot() {
    FeedId notes = TestBlocks.feedId();
    authority.append(new AppendCommand(SPACE, Optional.of(Namespace.of("notes")),
        List.of(TestBlocks.block(notes, "n", 0))));

    AccessDeniedException denied = assertThrows(AccessDeniedException.class, () -> authority.append(
        new AppendCommand(SPACE, Optional.empty(), List.of(TestBlocks.block(notes, "n", 1)), chatWriter())));
    assertTrue(denied.getMessage().contains("may not Append to namespace 'notes'"), denied.getMessage());
    assertArrayEquals(new long[] {2}, authority.append(new AppendCommand(SPACE, Optional.empty(),
        List.of(TestBlocks.block(notes, "n", 1)))).positions());
  }

  /** Waits until {@code appends} wait for the held commit, so that the group keeps their order. */
  private void awaitWaiting(int appends) {
    Await.until(appends + " appends waiting", () -> authority.waitingAppends() == appends);
  }

  /** The check of an append by the caller that may write namespace chat only. */
  private FeedWriteCheck chatWriter() {
    return (spaceId, feeds) -> chatWriter.checkWrite("Append", spaceId, feeds);
  }

  private Future<AppendResult> submit(String namespace, FeedWriteCheck check, Block block) {
    AppendCommand command = new AppendCommand(SPACE, Optional.of(Namespace.of(namespace)), List.of(block), check);
    return callers.submit(() -> authority.append(command));
  }
}
