package dev.feedstore.server;

import static io.grpc.Status.Code.ALREADY_EXISTS;
import static io.grpc.Status.Code.INVALID_ARGUMENT;
import static io.grpc.Status.Code.RESOURCE_EXHAUSTED;

import com.google.protobuf.ByteString;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.server.testing.BadText;
import dev.feedstore.server.testing.HostileCase;
import dev.feedstore.server.testing.Wire;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Append: every field of a block broken in turn (in the request's second block, so that the error
 * must name the index), predecessors by halves, positions, duplicates, conflicts, and the limits on
 * blocks and data. The feed holds block {@code a/0} ("a/0") before the sweep.
 */
final class HostileAppendCases {
  private HostileAppendCases() {}

  static List<HostileCase> all(HostileRequests requests) {
    List<HostileCase> cases = new ArrayList<>();
    Block good = requests.block();
    cases.add(HostileCase.of("Append: no blocks", HostileRequests.append(requests.append().toBuilder().clearBlocks().build()),
        INVALID_ARGUMENT, "blocks must hold at least one block"));
    for (BadText bad : BadText.concat(BadText.lengths(), BadText.notIdentifiers(),
        List.of(new BadText("a ULID with U", "01HQ3Z5V7W8X9Y0Z1A2B3C4D5U"), new BadText("ULID overflow", "81HQ3Z5V7W8X9Y0Z1A2B3C4D5E")))) {
      cases.add(second(requests, "feed_id " + bad.label(), b -> b.setFeedId(bad.value()), INVALID_ARGUMENT,
          "blocks[1].feed_id must be a ULID"));
    }
    for (String field : List.of("actor_id", "prev_actor_id")) {
      UnaryOperator<Block.Builder> prev = b -> field.equals("prev_actor_id") ? b.setPrevSequence(0) : b;
      for (BadText bad : BadText.concat(BadText.lengths(), List.of(BadText.HUGE))) {
        cases.add(second(requests, field + " " + bad.label(), b -> set(prev.apply(b), field, bad.value()),
            INVALID_ARGUMENT, "blocks[1]." + field + " must be 1-128 characters long"));
      }
      for (BadText bad : BadText.unprintable()) {
        cases.add(second(requests, field + " " + bad.label(), b -> set(prev.apply(b), field, bad.value()),
            INVALID_ARGUMENT, "blocks[1]." + field + " must be 1-128 characters of printable ASCII without spaces"));
      }
    }
    for (long negative : new long[] {-1, Long.MIN_VALUE}) {
      cases.add(second(requests, "sequence " + negative, b -> b.setSequence(negative), INVALID_ARGUMENT,
          "blocks[1].sequence must be >= 0, was " + negative));
      cases.add(second(requests, "prev_sequence " + negative, b -> b.setPrevActorId("a").setPrevSequence(negative),
          INVALID_ARGUMENT, "blocks[1].prev_sequence must be >= 0, was " + negative));
      cases.add(second(requests, "timestamp " + negative, b -> b.setTimestamp(negative), INVALID_ARGUMENT,
          "blocks[1].timestamp must be >= 0 (Unix milliseconds), was " + negative));
    }
    cases.add(second(requests, "prev_actor_id without prev_sequence", b -> b.setPrevActorId("a"), INVALID_ARGUMENT,
        "blocks[1].prev_sequence must be present when prev_actor_id is (a predecessor has both or neither)"));
    cases.add(second(requests, "prev_sequence without prev_actor_id", b -> b.setPrevSequence(0), INVALID_ARGUMENT,
        "blocks[1].prev_actor_id must be present when prev_sequence is"));
    cases.add(second(requests, "predecessor is itself",
        b -> b.setPrevActorId(b.getActorId()).setPrevSequence(b.getSequence()), INVALID_ARGUMENT,
        "blocks[1].prev_sequence must not name the block itself"));
    for (long position : new long[] {0, 1, -1, Long.MAX_VALUE}) {
      cases.add(second(requests, "position " + position, b -> b.setPosition(position), INVALID_ARGUMENT,
          "blocks[1].position must be absent in Append (the authority assigns positions), was " + position));
    }
    cases.add(HostileCase.of("Append: the same key twice with different data",
        HostileRequests.append(Wire.append(HostileRequests.SPACE, good, good.toBuilder().setData(ByteString.copyFromUtf8("other")).build())),
        INVALID_ARGUMENT, "blocks[1] must not reuse the key of blocks[0] with different content"));
    cases.add(HostileCase.of("Append: a new block and a stored key with different data",
        HostileRequests.append(Wire.append(HostileRequests.SPACE, good, Wire.block(requests.feed, "a", 0, "changed"))),
        ALREADY_EXISTS, "1 block key(s) are stored with different content: " + requests.feed + "/a/0", "nothing was written"));
    cases.add(HostileCase.of("Append: 1,001 blocks",
        HostileRequests.append(Wire.append(HostileRequests.SPACE, Wire.blocks(requests.feed, "b", 0, 1001))),
        RESOURCE_EXHAUSTED, "blocks-per-append limit is 1000, blocks of the append has 1001"));
    cases.add(HostileCase.of("Append: 100,000 blocks",
        HostileRequests.append(Wire.append(HostileRequests.SPACE, Wire.blocks(requests.feed, "b", 0, 100_000))),
        RESOURCE_EXHAUSTED, "blocks-per-append limit is 1000, blocks of the append has 100000"));
    for (int size : new int[] {(1 << 20) + 1, 10_000_000}) {
      cases.add(second(requests, "data of " + size + " bytes", b -> b.setData(ByteString.copyFrom(new byte[size])),
          RESOURCE_EXHAUSTED, "block-bytes limit is 1048576, blocks[1].data has " + size));
    }
    return cases;
  }

  /** A good request whose second block is changed by {@code change}. */
  private static HostileCase second(HostileRequests requests, String what, UnaryOperator<Block.Builder> change,
      io.grpc.Status.Code code, String... fragments) {
    AppendRequest good = requests.append();
    AppendRequest bad = good.toBuilder().setBlocks(1, change.apply(good.getBlocks(1).toBuilder())).build();
    return HostileCase.of("Append: blocks[1]." + what, HostileRequests.append(bad), code, fragments);
  }

  private static Block.Builder set(Block.Builder block, String field, String value) {
    return field.equals("actor_id") ? block.setActorId(value) : block.setPrevActorId(value);
  }
}
