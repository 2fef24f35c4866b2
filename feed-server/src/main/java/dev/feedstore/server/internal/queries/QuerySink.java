package dev.feedstore.server.internal.queries;

import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.Row;
import dev.feedstore.server.internal.live.StreamSink;
import java.util.List;

/**
 * Where a {@link QuerySubscription} sends its events: one stream of one transport (a gRPC
 * LiveQuery call, a Server-Sent Events response). The subscription decides what to send and when;
 * the sink encodes and writes, and says whether its transport takes more now ({@link #isReady}),
 * which is how a slow reader bounds what the server holds for it.
 *
 * <p>Events, in order: {@link #ack} first; then either a snapshot ({@link #reset} when rows held
 * before must be dropped, {@link #snapshot} rows, {@link #ready}) or, on a resumed stream, the
 * changes that reach the fence and {@link #ready}; then {@link #changes} and {@link #heartbeat}s;
 * a reset and a fresh snapshot may come again at any point; {@link #end} is the last call. The
 * subscription calls the event methods from its serialized drain, one at a time.
 */
public interface QuerySink extends StreamSink {
  /**
   * The first event.
   *
   * @param query the query, whose canonical JSON the client may keep
   * @param fence where what follows starts: the snapshot is as of it, or a resumed stream's changes reach it
   * @param resumed true when no snapshot follows, only the changes after the client's resume token
   */
  record Ack(LiveQuery query, ResumeToken fence, boolean resumed) {}

  void ack(Ack ack);

  /** Drop every row held, because of {@code reason}: a fresh snapshot as of {@code fence} follows. */
  void reset(String reason, ResumeToken fence);

  /** Rows of the snapshot as of {@code fence}, in the query's order: not empty. */
  void snapshot(List<Row> rows, ResumeToken fence);

  /** The snapshot is complete (or a resumed stream reached the fence): live from {@code at}. */
  void ready(ResumeToken at);

  /**
   * The net change of the result over a range of commits, stamped with the position it brings the
   * subscriber to. A batch of the shared state is sent by every subscriber of the query: a sink
   * encodes it once in {@code batch.encodings()}.
   */
  void changes(QueryBatch batch);

  /** Nothing was sent for a heartbeat interval; the query stands at {@code at}. */
  void heartbeat(ResumeToken at);
}
