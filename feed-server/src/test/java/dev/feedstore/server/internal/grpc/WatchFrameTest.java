package dev.feedstore.server.internal.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.ByteString;
import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.WireMapping;
import dev.feedstore.proto.v1.BlockBatch;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.server.internal.spaces.TailEntry;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WatchFrameTest {

  @Test
  void aBatchPutTogetherFromSharedBlockEncodingsReadsAsTheEventBuiltWhole() throws Exception {
    FeedId named = TestBlocks.feedId();
    FeedId plain = TestBlocks.feedId();
    List<TailEntry> entries = new ArrayList<>();
    BlockBatch.Builder expectedBatch = BlockBatch.newBuilder();
    for (int i = 1; i <= 4; i++) {
      FeedId feed = i % 2 == 0 ? named : plain;
      Block block = TestBlocks.positioned(feed, "a", i, 100 + i);
      Optional<Namespace> namespace = feed.equals(named) ? Optional.of(Namespace.of("data")) : Optional.empty();
      entries.add(TailEntry.of(block, namespace));
      expectedBatch.addBlocks(WireMapping.toWire(block));
      namespace.ifPresent(ns -> expectedBatch.putFeedNamespaces(feed.value(), ns.value()));
    }
    WatchEvent head = WatchEvent.newBuilder().setRequestId("r-1").setServerToken("token").setMaxPosition(104).build();
    List<ByteString> fields = new ArrayList<>();
    entries.forEach(e -> fields.add(EncodedBlock.of(e).blockField()));
    fields.add(EncodedBlock.of(entries.get(1)).namespaceField());

    WatchFrame frame = WatchFrame.withBatch(head, fields);

    WatchEvent expected = head.toBuilder().setBlocks(expectedBatch).build();
    assertEquals(expected, WatchEvent.parseFrom(frame.bytes()));
    InputStream stream = WatchFrame.MARSHALLER.stream(frame);
    assertEquals(frame.bytes().size(), stream.available());
    ByteArrayOutputStream drained = new ByteArrayOutputStream();
    assertEquals(frame.bytes().size(), ((io.grpc.Drainable) stream).drainTo(drained));
    assertEquals(expected, WatchEvent.parseFrom(drained.toByteArray()));
    assertEquals(expected, WatchEvent.parseFrom(WatchFrame.MARSHALLER.stream(WatchFrame.of(expected))));
  }
}
