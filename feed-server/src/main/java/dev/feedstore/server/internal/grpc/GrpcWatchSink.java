package dev.feedstore.server.internal.grpc;

import com.google.protobuf.ByteString;
import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.proto.WireMapping;
import dev.feedstore.proto.v1.BlockBatch;
import dev.feedstore.proto.v1.CaughtUp;
import dev.feedstore.proto.v1.Heartbeat;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.server.internal.live.LiveSink;
import dev.feedstore.server.internal.spaces.Encodings;
import dev.feedstore.server.internal.spaces.Page;
import dev.feedstore.server.internal.spaces.SharedBatches;
import dev.feedstore.server.internal.spaces.TailEntry;
import io.grpc.stub.ServerCallStreamObserver;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A Watch call as a {@link LiveSink}: each event a {@code WatchEvent} echoing the request id, live
 * blocks sent as the bytes they were encoded to once ({@link EncodedBlock}, {@link WatchFrame}), in
 * a frame that streams sending the same batch with the same fields share ({@link SharedBatches}),
 * readiness from gRPC's flow control, and the end as the status of its reason ({@link Failures}).
 * Used from the follower's drain only, as {@link LiveSink} says.
 */
final class GrpcWatchSink implements LiveSink {
  /** The frames of a batch or a page, shared by the Watches that send it with the same fields. */
  private static final Encodings.Kind<SharedBatches<WatchFrame>> FRAMES = new Encodings.Kind<>("Watch frames");

  /** What a Watch frame holds besides its blocks. */
  private record FrameFields(String requestId, Head head) {}

  private final String requestId;
  private final ServerStream<WatchFrame> call;

  GrpcWatchSink(String requestId, ServerCallStreamObserver<WatchFrame> call) {
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
  public void history(Head head, Page page) {
    call.send(historyFrame(head, page));
  }

  @Override
  public void sharedHistory(Head head, Page page, Encodings encodings) {
    call.send(SharedBatches.page(FRAMES, new FrameFields(requestId, head), encodings, () -> historyFrame(head, page)));
  }

  private WatchFrame historyFrame(Head head, Page page) {
    BlockBatch.Builder batch = BlockBatch.newBuilder();
    for (Block block : page.blocks()) {
      batch.addBlocks(WireMapping.toWire(block));
    }
    page.namespaces().forEach((feed, ns) -> batch.putFeedNamespaces(feed.value(), ns.value()));
    return WatchFrame.of(event(head).setBlocks(batch).build());
  }

  @Override
  public void live(Head head, List<TailEntry> entries) {
    call.send(SharedBatches.live(FRAMES, new FrameFields(requestId, head), entries, () -> frame(head, entries)));
  }

  /** The event of {@code head} with the batch of {@code entries}, from their shared encodings. */
  private WatchFrame frame(Head head, List<TailEntry> entries) {
    List<ByteString> fields = new ArrayList<>(entries.size());
    Set<FeedId> named = new HashSet<>();
    List<ByteString> namespaces = new ArrayList<>();
    for (TailEntry entry : entries) {
      EncodedBlock encoded = EncodedBlock.of(entry);
      fields.add(encoded.blockField());
      if (!encoded.namespaceField().isEmpty() && named.add(entry.feedId())) {
        namespaces.add(encoded.namespaceField());
      }
    }
    fields.addAll(namespaces);
    return WatchFrame.withBatch(event(head).build(), fields);
  }

  @Override
  public void caughtUp(Head head) {
    call.send(WatchFrame.of(event(head).setCaughtUp(CaughtUp.getDefaultInstance()).build()));
  }

  @Override
  public void heartbeat(Head head) {
    call.send(WatchFrame.of(event(head).setHeartbeat(Heartbeat.getDefaultInstance()).build()));
  }

  @Override
  public void end(RuntimeException reason) {
    call.end(reason);
  }

  private WatchEvent.Builder event(Head head) {
    WatchEvent.Builder event = WatchEvent.newBuilder()
        .setRequestId(requestId)
        .setServerToken(head.token().value())
        .setMaxPosition(head.maxPosition())
        .setFloor(head.floor());
    head.cursorBlock().ifPresent(key -> event.setCursorBlock(WireMapping.toWire(key)));
    head.cursorChain().ifPresent(event::setCursorChain);
    head.lastChain().ifPresent(event::setLastChain);
    head.startCursor().ifPresent(event::setStartCursor);
    return event;
  }
}
