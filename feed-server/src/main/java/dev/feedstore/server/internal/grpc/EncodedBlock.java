package dev.feedstore.server.internal.grpc;

import com.google.protobuf.ByteString;
import dev.feedstore.proto.WireMapping;
import dev.feedstore.proto.v1.BlockBatch;
import dev.feedstore.server.internal.spaces.Encodings;
import dev.feedstore.server.internal.spaces.TailEntry;

/**
 * A live block as Watch frames are put together from it ({@link WatchFrame#withBatch}): encoded once,
 * by the first Watch that sends it, and kept in its tail entry's {@link Encodings} for every other
 * Watch of the space. Immutable.
 *
 * @param blockField the block as an entry of {@code BlockBatch.blocks}: tag, length and the encoded
 *     {@code Block}, position included
 * @param namespaceField the feed's namespace as an entry of {@code BlockBatch.feed_namespaces} (tag,
 *     length, map entry), or empty when the feed has none
 */
record EncodedBlock(ByteString blockField, ByteString namespaceField) {
  private static final Encodings.Kind<EncodedBlock> ENCODED = new Encodings.Kind<>("Watch block fields");

  /** The fields of {@code entry}'s block, encoded by the first Watch that asks. */
  static EncodedBlock of(TailEntry entry) {
    return entry.encodings().get(ENCODED, () -> encode(entry));
  }

  private static EncodedBlock encode(TailEntry entry) {
    ByteString blockField = BlockBatch.newBuilder().addBlocks(WireMapping.toWire(entry.block())).build().toByteString();
    ByteString namespaceField = entry.namespace()
        .map(ns -> BlockBatch.newBuilder().putFeedNamespaces(entry.feedId().value(), ns.value()).build().toByteString())
        .orElse(ByteString.EMPTY);
    return new EncodedBlock(blockField, namespaceField);
  }
}
