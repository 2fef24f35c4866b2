package dev.feedstore.server.internal.spaces;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import com.google.protobuf.ByteString;
import dev.feedstore.proto.WireMapping;
import dev.feedstore.proto.v1.BlockBatch;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A committed block as live watchers need it: encoded once, so that every watcher of the space
 * sends the same bytes, with the namespace of its feed for scope checks and {@code
 * feed_namespaces}. Immutable.
 *
 * @param position the block's position in its space
 * @param feedId the block's feed
 * @param namespace the feed's namespace, if it has one
 * @param blockField the block as an entry of {@code BlockBatch.blocks}: tag, length and the
 *     encoded {@code Block}, position included
 * @param namespaceField the feed's namespace as an entry of {@code BlockBatch.feed_namespaces}
 *     (tag, length, map entry), or empty when the feed has none
 * @param bytes its size for byte budgets ({@link BlockSizes#of})
 * @param chain the history chain at the block's position, when known
 * @param encodings what the transports encode from this block once for every stream: made by the
 *     first stream of each transport that sends it
 */
public record TailEntry(long position, FeedId feedId, Optional<Namespace> namespace, ByteString blockField,
    ByteString namespaceField, long bytes, OptionalLong chain, Encodings encodings) {

  public TailEntry {
    Objects.requireNonNull(feedId, "feedId");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(blockField, "blockField");
    Objects.requireNonNull(namespaceField, "namespaceField");
    Objects.requireNonNull(chain, "chain");
    Objects.requireNonNull(encodings, "encodings");
  }

  /** The block itself, decoded from its wire encoding. */
  public Block block() {
    try {
      return WireMapping.toDomain(BlockBatch.parseFrom(blockField).getBlocks(0), "block");
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new IllegalStateException("a tail entry holds what the server encoded itself", e);
    }
  }

  public static TailEntry of(Block positioned, Optional<Namespace> namespace) {
    return of(positioned, namespace, OptionalLong.empty());
  }

  static TailEntry of(Block positioned, Optional<Namespace> namespace, OptionalLong chain) {
    BlockBatch.Builder batch = BlockBatch.newBuilder().addBlocks(WireMapping.toWire(positioned));
    ByteString blockField = batch.build().toByteString();
    ByteString namespaceField = namespace
        .map(ns -> BlockBatch.newBuilder().putFeedNamespaces(positioned.feedId().value(), ns.value()).build()
            .toByteString())
        .orElse(ByteString.EMPTY);
    return new TailEntry(positioned.position().value(), positioned.feedId(), namespace, blockField, namespaceField,
        BlockSizes.of(positioned), chain, new Encodings());
  }
}
