package dev.feedstore.server.internal.grpc;

import dev.feedstore.core.query.Row;
import dev.feedstore.proto.WireQueries;
import dev.feedstore.proto.v1.LiveQueryAck;
import dev.feedstore.proto.v1.LiveQueryEvent;
import dev.feedstore.proto.v1.LiveQueryHeartbeat;
import dev.feedstore.proto.v1.LiveQueryReady;
import dev.feedstore.proto.v1.LiveQueryReset;
import dev.feedstore.proto.v1.LiveRows;
import dev.feedstore.server.internal.queries.QueryBatch;
import dev.feedstore.server.internal.queries.QuerySink;
import dev.feedstore.server.internal.queries.ResumeToken;
import dev.feedstore.server.internal.spaces.Encodings;
import io.grpc.stub.ServerCallStreamObserver;
import java.util.List;

/**
 * A LiveQuery call as a {@link QuerySink}: each event a {@code LiveQueryEvent} (sent encoded, {@link
 * LiveQueryFrame}) with the position and
 * resume token it brings the subscriber to; a change batch of the shared state built once for every
 * subscriber of its query ({@link #CHANGES}, so it carries nothing of one call); readiness from
 * gRPC's flow control; the end as the status of its reason ({@link Failures}). Used from the
 * subscription's drain only.
 */
final class GrpcQuerySink implements QuerySink {
  /** A change batch as an encoded {@code LiveQueryEvent}, made once per batch. */
  static final Encodings.Kind<LiveQueryFrame> CHANGES = new Encodings.Kind<>("LiveQueryEvent changes");

  private final String requestId;
  private final ServerStream<LiveQueryFrame> call;

  GrpcQuerySink(String requestId, ServerCallStreamObserver<LiveQueryFrame> call) {
    this.requestId = requestId;
    this.call = new ServerStream<>(call);
  }

  @Override
  public void start(Runnable onReady, Runnable onGone) {
    call.start(onReady, onGone);
  }

  @Override
  public boolean isReady() {
    return call.isReady();
  }

  @Override
  public void ack(Ack ack) {
    // No resume token: a resumed stream's changes up to the fence follow, and until they are
    // applied the client's own token is where it stands.
    LiveQueryEvent.Builder event = event(ack.fence(), false).setAck(LiveQueryAck.newBuilder()
        .setRequestId(requestId).setFloor(ack.fence().floor()).setQuery(ack.query().toJson())
        .setQueryHash(ack.fence().queryHash()).setResumed(ack.resumed()));
    call.send(LiveQueryFrame.of(event.build()));
  }

  @Override
  public void reset(String reason, ResumeToken fence) {
    call.send(LiveQueryFrame.of(event(fence, false).setReset(LiveQueryReset.newBuilder().setReason(reason)
        .setFloor(fence.floor())).build()));
  }

  @Override
  public void snapshot(List<Row> rows, ResumeToken fence) {
    LiveRows.Builder wire = LiveRows.newBuilder();
    rows.forEach(row -> wire.addRows(WireQueries.toWire(row)));
    call.send(LiveQueryFrame.of(event(fence, false).setSnapshot(wire).build()));
  }

  @Override
  public void ready(ResumeToken at) {
    call.send(LiveQueryFrame.of(event(at, true).setReady(LiveQueryReady.getDefaultInstance()).build()));
  }

  @Override
  public void changes(QueryBatch batch) {
    call.send(batch.encodings().get(CHANGES, () -> LiveQueryFrame.of(event(batch.stamp(), true)
        .setChanges(WireQueries.toWire(batch.changes())).build())));
  }

  @Override
  public void heartbeat(ResumeToken at) {
    call.send(LiveQueryFrame.of(event(at, true).setHeartbeat(LiveQueryHeartbeat.getDefaultInstance()).build()));
  }

  @Override
  public void end(RuntimeException reason) {
    call.end(reason);
  }

  /** An event at {@code at}, carrying its resume token when {@code resumable}. */
  private static LiveQueryEvent.Builder event(ResumeToken at, boolean resumable) {
    LiveQueryEvent.Builder event = LiveQueryEvent.newBuilder().setServerToken(at.serverToken())
        .setPosition(at.position());
    if (resumable) {
      event.setResumeToken(at.text());
    }
    return event;
  }
}
