package dev.feedstore.server.internal.streams;

import dev.feedstore.core.ActorId;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.Predecessor;
import dev.feedstore.core.Sequence;
import dev.feedstore.core.store.AuthorityTransaction;
import dev.feedstore.core.store.StreamRecord;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * How an append to a Durable Stream becomes a block of the stream's feed: the data (as sent, or a
 * JSON stream's messages as one array), the actor (the producer, or {@code http}), the sequence
 * (one more than the highest the feed ever held, whoever wrote it and whether or not retention has
 * removed it since: the rule a replica's next block follows too) and the predecessor (the feed's
 * last block, none when retention removed them all). Stateless.
 */
final class StreamBlocks {
  /** The actor of blocks appended without a producer. */
  static final ActorId HTTP_ACTOR = ActorId.of("http");

  private StreamBlocks() {}

  /** The blocks holding {@code datas}, in order, keyed and linked after the stream feed's last block. */
  static List<Block> of(AuthorityTransaction tx, StreamReader reader, StreamRecord record, ActorId actor,
      List<byte[]> datas, long now) {
    long sequence = tx.streams().maxSequence(reader.space(), record.feedId()).orElse(-1) + 1;
    Optional<Predecessor> predecessor = reader.lastOwnBlock(tx, record).map(b -> Predecessor.of(b.key()));
    List<Block> blocks = new ArrayList<>(datas.size());
    for (byte[] data : datas) {
      Block block = Block.unpositioned(BlockKey.of(record.feedId(), actor, new Sequence(sequence++)), predecessor, now,
          BlockData.copyOf(data));
      predecessor = Optional.of(Predecessor.of(block.key()));
      blocks.add(block);
    }
    return blocks;
  }

  /** The block data of a body: as sent, or for a JSON stream the array of its messages. */
  static byte[] data(StreamContent content, byte[] body, boolean creating) {
    if (!content.isJson() || body.length == 0) {
      return body;
    }
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .decode(java.nio.ByteBuffer.wrap(body)).toString();
    } catch (CharacterCodingException e) {
      throw StreamException.badRequest("the body of a JSON stream must be UTF-8");
    }
    List<String> messages = StreamJson.messages(text);
    if (messages.isEmpty()) {
      if (creating) {
        return new byte[0];
      }
      throw StreamException.badRequest("an append of an empty JSON array has no messages; send at least one");
    }
    return StreamJson.block(messages).getBytes(StandardCharsets.UTF_8);
  }

  /** The actor of a producer's blocks: its id, or a digest of it when that is no actor id. */
  static ActorId actor(String producerId) {
    try {
      return ActorId.of(producerId);
    } catch (InvalidValueException e) {
      try {
        byte[] digest = java.security.MessageDigest.getInstance("SHA-256")
            .digest(producerId.getBytes(StandardCharsets.UTF_8));
        return ActorId.of("producer-" + HexFormat.of().formatHex(digest, 0, 16));
      } catch (java.security.NoSuchAlgorithmException impossible) {
        throw new IllegalStateException("every Java platform has SHA-256", impossible);
      }
    }
  }
}
