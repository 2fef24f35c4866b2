package dev.feedstore.server.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.query.DocumentId;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.Row;
import dev.feedstore.core.query.result.ChangeBatch;
import dev.feedstore.core.query.result.RowUpdate;
import dev.feedstore.proto.WireQueries;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.LiveQueryEvent;
import dev.feedstore.proto.v1.LiveQueryRequest;
import io.grpc.Context;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A client's view of one gRPC live query: it applies each event as an application would (a
 * snapshot fills it, a reset empties it, changes must match what it holds: an update's previous row
 * and a leaving row are the rows held), and remembers the last resume token, to reconnect with.
 * Fails a test at the first event that does not fit. Not thread-safe.
 */
public final class LiveQueryView {
  private final LiveQuery query;
  /** What arrived, one line per event, for failure messages. */
  private final StringBuilder history = new StringBuilder();
  private final Map<DocumentId, Row> held = new HashMap<>();
  private EventRecorder<LiveQueryEvent> events;
  private Context.CancellableContext call;
  private String token = "";
  private long position;
  private boolean ready;
  /** An ack said the stream resumed: its changes come before ready. */
  private boolean resuming;
  /** Counts of what arrived since the view was made. */
  public int snapshots;
  public int resets;
  public int acksResumed;

  public LiveQueryView(LiveQuery query) {
    this.query = query;
  }

  /** Opens the query on {@code stub}, resuming after the last token when there is one. */
  public LiveQueryView open(FeedSyncGrpc.FeedSyncStub stub) {
    LiveQueryRequest.Builder request = LiveQueryRequest.newBuilder().setRequestId("lq").setSpaceId(query.space().value())
        .setText(query.toJson());
    if (!token.isEmpty()) {
      request.setResumeToken(token);
    }
    events = new EventRecorder<>();
    history.append("open after ").append(token).append('\n');
    ready = false;
    call = Context.current().withCancellation();
    call.run(() -> stub.liveQuery(request.build(), events));
    return this;
  }

  /** Cancels the call (the client goes away); the view keeps its rows and token. */
  public void disconnect() {
    call.cancel(null);
  }

  public EventRecorder<LiveQueryEvent> events() {
    return events;
  }

  /** Takes and applies the next event. */
  public LiveQueryEvent next() {
    LiveQueryEvent event = events.next();
    apply(event);
    return event;
  }

  /** Applies events until the snapshot (or a resume's changes) is complete. */
  public LiveQueryView awaitReady() {
    while (!ready) {
      next();
    }
    return this;
  }

  /** Applies events until the view is as of {@code target} or later. */
  public LiveQueryView awaitPosition(long target) {
    while (!ready || position < target) {
      next();
    }
    return this;
  }

  public void apply(LiveQueryEvent event) {
    history.append(event.getEventCase()).append(' ').append(event.getPosition()).append(' ')
        .append(event.hasAck() ? "resumed " + event.getAck().getResumed() : "").append(' ')
        .append(event.getEventCase() == LiveQueryEvent.EventCase.CHANGES ? event.getChanges().toString()
            .replace('\n', ' ').replaceAll("block \\{[^}]*\\}", "").replaceAll(" +", " ") : "").append('\n');
    switch (event.getEventCase()) {
      case ACK -> {
        assertEquals(query.toJson(), event.getAck().getQuery());
        resuming = event.getAck().getResumed();
        if (resuming) {
          acksResumed++;
        } else {
          held.clear(); // a snapshot follows
        }
      }
      case RESET -> {
        resets++;
        held.clear();
        ready = false; // a fresh snapshot follows, complete at its ready
      }
      case SNAPSHOT -> {
        snapshots++;
        for (Row row : WireQueries.rows(event.getSnapshot().getRowsList(), "rows")) {
          assertTrue(held.put(row.id(), row) == null, "a snapshot names " + row.id() + " twice");
        }
      }
      case READY -> {
        ready = true;
        resuming = false;
      }
      case CHANGES -> applyChanges(WireQueries.toDomain(event.getChanges()));
      case HEARTBEAT -> { }
      default -> throw new AssertionError("an event without content: " + event);
    }
    if (!event.getResumeToken().isEmpty()) {
      assertTrue(event.getPosition() >= position, "positions only grow: " + position + " then " + event);
      token = event.getResumeToken();
    }
    position = event.getPosition();
  }

  private void applyChanges(ChangeBatch batch) {
    assertTrue(ready || resuming, "changes before ready on a stream that did not resume");
    for (Row row : batch.left()) {
      assertEquals(row, held.remove(row.id()), "a row leaves as it was held, after\n" + history);
    }
    for (RowUpdate update : batch.updated()) {
      assertEquals(update.previous(), held.get(update.current().id()), "an update's previous row is the one held");
      held.put(update.current().id(), update.current());
    }
    for (Row row : batch.entered()) {
      assertTrue(held.put(row.id(), row) == null, "a row enters that was held: " + row);
    }
  }

  /** The rows held, in the query's order. */
  public List<Row> rows() {
    List<Row> rows = new ArrayList<>(held.values());
    rows.sort(query.rowOrder());
    return rows;
  }

  /** True once the snapshot (or a resume's changes) is complete on the open stream. */
  public boolean isReady() {
    return ready;
  }

  public LiveQuery query() {
    return query;
  }

  public long position() {
    return position;
  }

  public String token() {
    assertNotNull(token);
    return token;
  }

  /** Takes a token of another store, as a client that followed another server would hold. */
  public void token(String value) {
    token = value;
  }
}
