package dev.feedstore.server.internal.http;

import dev.feedstore.core.query.DocumentId;
import dev.feedstore.core.query.Row;
import dev.feedstore.core.query.result.ChangeBatch;
import dev.feedstore.server.internal.errors.ErrorCode;
import dev.feedstore.server.internal.errors.CallRefusal;
import dev.feedstore.server.internal.queries.QueryBatch;
import dev.feedstore.server.internal.queries.QuerySink;
import dev.feedstore.server.internal.queries.ResumeToken;
import dev.feedstore.server.internal.spaces.Encodings;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A live query as a Server-Sent Events response ({@link QuerySink}): {@code event: ack} with the
 * fence, floor, canonical query and its hash; {@code event: reset} (drop every row: a snapshot
 * follows); {@code event: snapshot} with rows; {@code event: ready}, {@code event: changes} and
 * {@code event: heartbeat}, each with {@code id:} its resume token (what {@code Last-Event-ID}
 * sends back on reconnect); at the end {@code event: error} or {@code event: auth} with {@code
 * {"code","message"}}. A change batch of the shared state is encoded once for every subscriber of
 * its query. Flow control is {@link SseWriter}'s. Thread-safe as {@link SseSink} is.
 */
final class SseQuerySink implements QuerySink {
  /** A change batch's event, encoded once for every subscriber that sends it. */
  static final Encodings.Kind<byte[]> CHANGES = new Encodings.Kind<>("live query changes event");

  private final HttpExchange exchange;
  private final SseWriter writer;

  SseQuerySink(HttpExchange exchange) {
    this.exchange = exchange;
    this.writer = new SseWriter(exchange.events());
  }

  @Override
  public void start(Runnable onReady, Runnable onGone) {
    SseSink.startResponse(exchange.response());
    writer.start(onReady, onGone);
  }

  @Override
  public boolean isReady() {
    return writer.isReady();
  }

  @Override
  public void ack(Ack ack) {
    write(SseEvent.named("ack", Json.object().field("position", ack.fence().position())
        .field("floor", ack.fence().floor()).raw("query", ack.query().toJson())
        .field("query_hash", ack.fence().queryHash()).field("resumed", ack.resumed())
        .field("server_token", ack.fence().serverToken()).end()));
  }

  @Override
  public void reset(String reason, ResumeToken fence) {
    write(SseEvent.named("reset", Json.object().field("position", fence.position()).field("floor", fence.floor())
        .field("reason", reason).end()));
  }

  @Override
  public void snapshot(List<Row> rows, ResumeToken fence) {
    write(SseEvent.named("snapshot", Json.object().field("position", fence.position()).raw("rows", rows(rows))
        .end()));
  }

  @Override
  public void ready(ResumeToken at) {
    write(resumable("ready", at, Json.object().field("position", at.position()).end()));
  }

  @Override
  public void changes(QueryBatch batch) {
    writer.write(ByteBuffer.wrap(batch.encodings().get(CHANGES, () -> resumable("changes", batch.stamp(),
        changesJson(batch)).getBytes(StandardCharsets.UTF_8))));
  }

  @Override
  public void heartbeat(ResumeToken at) {
    write(resumable("heartbeat", at, Json.object().field("position", at.position()).end()));
  }

  @Override
  public void end(RuntimeException reason) {
    CallRefusal refusal = CallRefusal.of(reason);
    String name = refusal.code() == ErrorCode.UNAUTHENTICATED ? "auth" : "error";
    exchange.ended(refusal.code().name());
    writer.end(bytes(SseEvent.named(name, Json.object().field("code", refusal.code().name())
        .field("message", refusal.message()).end())));
  }

  /** A named event with {@code id:} the token to resume after it. */
  private static String resumable(String name, ResumeToken at, String json) {
    return "id: " + at.text() + "\n" + SseEvent.named(name, json);
  }

  private static String changesJson(QueryBatch batch) {
    ChangeBatch changes = batch.changes();
    String updated = changes.updated().stream().map(update -> Json.object().raw("previous", row(update.previous()))
        .raw("current", row(update.current())).end()).collect(Collectors.joining(",", "[", "]"));
    return Json.object().field("position", batch.position()).raw("entered", rows(changes.entered()))
        .raw("updated", updated).raw("left", rows(changes.left())).end();
  }

  private static String rows(List<Row> rows) {
    return rows.stream().map(SseQuerySink::row).collect(Collectors.joining(",", "[", "]"));
  }

  /**
   * A row as JSON: {@code key} (a number or a string), {@code block}, {@code position}, {@code
   * received_at} when known, {@code order_value} when the query orders and the row has one, and
   * {@code content} (the projected content; absent when the version is not JSON).
   */
  static String row(Row row) {
    Json json = Json.object().raw("key", keyJson(row.id())).raw("block", BlockJson.of(row.version().block()))
        .field("position", row.version().position().value());
    row.version().receivedAt().ifPresent(at -> json.field("received_at", at));
    row.orderValue().ifPresent(value -> json.raw("order_value", value.toString()));
    row.content().ifPresent(value -> json.raw("content", value.toString()));
    return json.end();
  }

  private static String keyJson(DocumentId id) {
    return id.toJson().toString();
  }

  private void write(String text) {
    writer.write(bytes(text));
  }

  private static ByteBuffer bytes(String text) {
    return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
  }
}
