package dev.feedstore.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.QueryRecorder;
import dev.feedstore.client.testing.Replicas;
import dev.feedstore.core.ActorId;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.query.DocumentId;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.Row;
import dev.feedstore.core.query.result.ChangeBatch;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.testing.SyncDriver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A change costs the documents it touched, not a re-run of the query: with 100,000 documents in
 * scope, the snapshot reads every block once, a local one-block append reads none (the appended
 * block is its document's newest version), and a pulled one-block batch reads the pulled block and
 * the newest candidates of its document, found through the index on the key. Counts blocks read,
 * never time.
 */
class LiveQueryCostTest {
  private static final SpaceId SPACE = SpaceId.of("work");
  private static final Namespace TASKS = Namespace.of("tasks");
  private static final int DOCUMENTS = 100_000;
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path dir;

  @Test
  void aOneBlockChangeTo100000DocumentsReadsTheDocumentItTouchedNotTheQuery() throws Exception {
    try (RestartableServer authority = RestartableServer.inProcess(dir);
        Replica alice = Replica.open(dir.resolve("alice.db"), ActorId.of("alice"));
        Replica bob = Replica.open(dir.resolve("bob.db"), ActorId.of("bob"))) {
      FeedId local = alice.createFeed(SPACE, Optional.of(TASKS), Replication.NONE);
      for (int from = 0; from < DOCUMENTS; from += 1_000) {
        List<BlockData> batch = new ArrayList<>();
        for (int id = from; id < from + 1_000; id++) {
          batch.add(task(id, id % 10 == 0 ? "ana" : "bob", false));
        }
        alice.append(SPACE, local, batch);
      }
      FeedId shared = bob.createFeed(SPACE, Optional.of(TASKS), Replication.fullHistory());
      alice.replicate(SPACE, shared, Optional.of(TASKS), Replication.fullHistory());
      LiveQuery query = LiveQuery.parse("space:work namespace:tasks key:/id where /assignee = \"ana\" and /done = false"
          + " order /id desc limit 50");
      QueryRecorder recorder = new QueryRecorder(query);
      LiveQueryRegistration registration = alice.liveQuery(query, recorder);

      LiveQueryEvent.Snapshot snapshot = assertInstanceOf(LiveQueryEvent.Snapshot.class, recorder.next(WAIT));
      assertEquals(50, snapshot.rows().size());
      assertEquals(DocumentId.of(99_990), snapshot.rows().get(0).id());
      assertEquals(DOCUMENTS, alice.liveQueryBlocksRead(), "the snapshot reads every block once");

      long before = alice.liveQueryBlocksRead();
      alice.append(SPACE, local, task(200_000, "ana", false));
      ChangeBatch appended = changes(recorder.next(WAIT));
      assertEquals(List.of(DocumentId.of(200_000)), ids(appended.entered()));
      assertEquals(List.of(DocumentId.of(99_500)), ids(appended.left()), "pushed out of the newest 50");
      assertEquals(before, alice.liveQueryBlocksRead(), "a local append reads no block");

      SyncDriver<Replica> driver = Replicas.driver(authority.channel(), SPACE);
      bob.append(SPACE, shared, task(300_000, "ana", false));
      driver.push(bob);
      before = alice.liveQueryBlocksRead();
      driver.pull(alice);
      ChangeBatch pulled = changes(recorder.next(WAIT));
      assertEquals(List.of(DocumentId.of(300_000)), ids(pulled.entered()));
      assertEquals(List.of(DocumentId.of(99_510)), ids(pulled.left()), "pushed out of the newest 50");
      long read = alice.liveQueryBlocksRead() - before;
      assertEquals(2, read, "the pulled block, and its document's one version found by key");
      assertTrue(registration.awaitCurrent(WAIT));
    }
  }

  private static BlockData task(int id, String assignee, boolean done) {
    return BlockData.utf8("{\"id\":" + id + ",\"assignee\":\"" + assignee + "\",\"done\":" + done + "}");
  }

  private static ChangeBatch changes(LiveQueryEvent event) {
    return assertInstanceOf(LiveQueryEvent.Changes.class, event).changes();
  }

  private static List<DocumentId> ids(List<Row> rows) {
    return rows.stream().map(Row::id).toList();
  }
}
