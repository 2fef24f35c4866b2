package dev.feedstore.proto;

import com.google.protobuf.ByteString;
import dev.feedstore.core.ActorId;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.FeedInfo;
import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Predecessor;
import dev.feedstore.core.Sequence;
import dev.feedstore.core.SpaceId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Maps between {@code feed.v1} messages and domain types. Mapping a message in validates it: a bad
 * value is an {@link InvalidValueException} that names the wire field ({@code blocks[2].feed_id}),
 * the rule and the value. Stateless and thread-safe.
 */
public final class WireMapping {
  private WireMapping() {}

  /** A wire block as a domain block; {@code field} is where it sits in its message. */
  public static Block toDomain(dev.feedstore.proto.v1.Block wire, String field) {
    return toDomain(wire, () -> field);
  }

  /**
   * Maps without naming fields, which costs string building per block; when a value is rejected it
   * maps again with names, which rejects the same value with the field named.
   */
  private static Block toDomain(dev.feedstore.proto.v1.Block wire, java.util.function.Supplier<String> field) {
    try {
      Optional<Predecessor> predecessor = Optional.empty();
      if (wire.hasPrevActorId() && wire.hasPrevSequence()) {
        predecessor = Optional.of(new Predecessor(new ActorId(wire.getPrevActorId()), new Sequence(wire.getPrevSequence())));
      } else if (wire.hasPrevActorId() || wire.hasPrevSequence()) {
        return named(wire, field.get());
      }
      if (wire.hasPosition() && wire.getPosition() < 1 || wire.getTimestamp() < 0 || wire.hasReceivedAt()
          && (!wire.hasPosition() || wire.getReceivedAt() < 0)) {
        return named(wire, field.get());
      }
      return new Block(new BlockKey(new FeedId(wire.getFeedId()), new ActorId(wire.getActorId()),
          new Sequence(wire.getSequence())), predecessor, wire.getTimestamp(),
          BlockData.copyOf(wire.getData().asReadOnlyByteBuffer()),
          wire.hasPosition() ? Position.of(wire.getPosition()) : Position.NONE, receivedAt(wire));
    } catch (InvalidValueException e) {
      named(wire, field.get());
      throw e;
    }
  }

  /** The mapping with every rejection naming its wire field. */
  private static Block named(dev.feedstore.proto.v1.Block wire, String field) {
    try {
      BlockKey key = new BlockKey(
          in(field + ".feed_id", () -> new FeedId(wire.getFeedId())),
          in(field + ".actor_id", () -> new ActorId(wire.getActorId())),
          in(field + ".sequence", () -> new Sequence(wire.getSequence())));
      Optional<Predecessor> predecessor = predecessor(wire, field);
      Position position = Position.NONE;
      if (wire.hasPosition()) {
        if (wire.getPosition() < 1) {
          throw new InvalidValueException(field + ".position", "must be >= 1 when present", wire.getPosition());
        }
        position = Position.of(wire.getPosition());
      }
      if (wire.hasReceivedAt() && (!wire.hasPosition() || wire.getReceivedAt() < 0)) {
        throw new InvalidValueException(field + ".received_at", wire.hasPosition()
            ? "must be >= 0 (Unix milliseconds)" : "must be absent when position is (only the authority sets it)",
            wire.getReceivedAt());
      }
      BlockData data = BlockData.copyOf(wire.getData().asReadOnlyByteBuffer());
      return new Block(key, predecessor, in(field + ".timestamp", () -> checkTimestamp(wire.getTimestamp())),
          data, position, receivedAt(wire));
    } catch (InvalidValueException e) {
      throw e.field().startsWith(field) ? e : e.withField(field + "." + snake(e.field()));
    }
  }

  private static java.util.OptionalLong receivedAt(dev.feedstore.proto.v1.Block wire) {
    return wire.hasReceivedAt() ? java.util.OptionalLong.of(wire.getReceivedAt()) : java.util.OptionalLong.empty();
  }

  private static Optional<Predecessor> predecessor(dev.feedstore.proto.v1.Block wire, String field) {
    if (wire.hasPrevActorId() != wire.hasPrevSequence()) {
      String missing = wire.hasPrevActorId() ? "prev_sequence" : "prev_actor_id";
      throw new InvalidValueException(field + "." + missing,
          "must be present when " + (wire.hasPrevActorId() ? "prev_actor_id" : "prev_sequence")
              + " is (a predecessor has both or neither)", "absent");
    }
    if (!wire.hasPrevActorId()) {
      return Optional.empty();
    }
    return Optional.of(new Predecessor(
        in(field + ".prev_actor_id", () -> new ActorId(wire.getPrevActorId())),
        in(field + ".prev_sequence", () -> new Sequence(wire.getPrevSequence()))));
  }

  private static long checkTimestamp(long timestamp) {
    if (timestamp < 0) {
      throw new InvalidValueException("timestamp", "must be >= 0 (Unix milliseconds)", timestamp);
    }
    return timestamp;
  }

  /** Every block of a request, named {@code blocks[i]} in errors. */
  public static List<Block> toDomain(List<dev.feedstore.proto.v1.Block> wire) {
    List<Block> blocks = new ArrayList<>(wire.size());
    for (int i = 0; i < wire.size(); i++) {
      int index = i;
      blocks.add(toDomain(wire.get(i), () -> "blocks[" + index + "]"));
    }
    return blocks;
  }

  public static dev.feedstore.proto.v1.Block toWire(Block block) {
    dev.feedstore.proto.v1.Block.Builder wire = dev.feedstore.proto.v1.Block.newBuilder()
        .setFeedId(block.feedId().value())
        .setActorId(block.actorId().value())
        .setSequence(block.sequence().value())
        .setTimestamp(block.timestamp())
        .setData(ByteString.copyFrom(block.data().asReadOnlyBuffer()));
    block.predecessor().ifPresent(p -> wire.setPrevActorId(p.actorId().value()).setPrevSequence(p.sequence().value()));
    if (block.position().isAssigned()) {
      wire.setPosition(block.position().value());
    }
    block.receivedAt().ifPresent(wire::setReceivedAt);
    return wire.build();
  }

  public static BlockKey toDomain(dev.feedstore.proto.v1.BlockKey wire, String field) {
    return new BlockKey(
        in(field + ".feed_id", () -> new FeedId(wire.getFeedId())),
        in(field + ".actor_id", () -> new ActorId(wire.getActorId())),
        in(field + ".sequence", () -> new Sequence(wire.getSequence())));
  }

  public static dev.feedstore.proto.v1.BlockKey toWire(BlockKey key) {
    return dev.feedstore.proto.v1.BlockKey.newBuilder()
        .setFeedId(key.feedId().value())
        .setActorId(key.actorId().value())
        .setSequence(key.sequence().value())
        .build();
  }

  public static dev.feedstore.proto.v1.FeedInfo toWire(FeedInfo info) {
    dev.feedstore.proto.v1.FeedInfo.Builder wire = dev.feedstore.proto.v1.FeedInfo.newBuilder()
        .setFeedId(info.feedId().value())
        .setBlockCount(info.blockCount())
        .setLastPosition(info.lastPosition().value());
    info.namespace().ifPresent(ns -> wire.setNamespace(ns.value()));
    return wire.build();
  }

  public static FeedInfo toDomain(SpaceId spaceId, dev.feedstore.proto.v1.FeedInfo wire, String field) {
    Optional<Namespace> namespace = wire.hasNamespace()
        ? Optional.of(in(field + ".namespace", () -> new Namespace(wire.getNamespace())))
        : Optional.empty();
    if (wire.getBlockCount() < 0) {
      throw new InvalidValueException(field + ".block_count", "must be >= 0", wire.getBlockCount());
    }
    return new FeedInfo(spaceId, in(field + ".feed_id", () -> new FeedId(wire.getFeedId())), namespace,
        wire.getBlockCount(), in(field + ".last_position", () -> Position.of(wire.getLastPosition())));
  }

  public static SpaceId spaceId(String wire) {
    return in("space_id", () -> new SpaceId(wire));
  }

  public static Namespace namespace(String wire, String field) {
    return in(field, () -> new Namespace(wire));
  }

  public static FeedId feedId(String wire, String field) {
    return in(field, () -> new FeedId(wire));
  }

  /** Runs a constructor and names the wire field in its rejection. */
  public static <T> T in(String field, java.util.function.Supplier<T> make) {
    try {
      return make.get();
    } catch (InvalidValueException e) {
      throw e.field().equals(field) ? e : e.withField(field);
    }
  }

  /** {@code prevSequence} to {@code prev_sequence}. */
  static String snake(String camel) {
    StringBuilder out = new StringBuilder();
    for (char c : camel.toCharArray()) {
      if (Character.isUpperCase(c)) {
        out.append('_').append(Character.toLowerCase(c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
