package dev.feedstore.server.internal.http;

import dev.feedstore.core.ActorId;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.Limits;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Predecessor;
import dev.feedstore.core.Sequence;
import dev.feedstore.server.internal.authority.AppendCommand;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import dev.feedstore.server.internal.requests.Requests;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The JSON body of an HTTP append, read straight into the authority's command: {@code {"namespace":
 * "chat", "blocks": [{"actor_id": "a", "sequence": 0, "prev_actor_id": ..., "prev_sequence": ...,
 * "timestamp": 1700000000000, "data": BASE64}]}}, the fields of the API's {@code AppendRequest} and
 * {@code Block} by their names (snake_case, or the lowerCamelCase of protobuf's JSON), a whole
 * number as a JSON number or a string, {@code null} as a field left out, {@code data} in base64 (the
 * standard or the URL alphabet, padded or not). {@code space_id} and {@code feed_id} may be left
 * out; the path names them. A body that is not that JSON is refused naming what is wrong and where;
 * its values are then checked by the API's rules ({@link Requests}), each refusal naming its field
 * ({@code blocks[2].sequence}). Immutable once read.
 */
final class AppendBody {
  private static final String SHAPE = "must be the JSON of an append: {\"blocks\": [{\"actor_id\": ..., \"sequence\":"
      + " ..., \"timestamp\": ..., \"data\": BASE64}], \"namespace\": optional}; the parser said";

  /** One block of the body, as given. */
  private static final class Fields {
    String actorId = "";
    long sequence;
    Optional<String> prevActorId = Optional.empty();
    OptionalLong prevSequence = OptionalLong.empty();
    long timestamp;
    byte[] data = new byte[0];
    OptionalLong position = OptionalLong.empty();
    OptionalLong receivedAt = OptionalLong.empty();
  }

  private final String space;
  private final String feed;
  private Optional<String> namespace = Optional.empty();
  private final List<Fields> blocks = new ArrayList<>();

  private AppendBody(String space, String feed) {
    this.space = space;
    this.feed = feed;
  }

  /**
   * Reads {@code body}, an append of the feed {@code feed} in {@code space} (as the path gives them).
   *
   * @throws InvalidValueException if it is not UTF-8, not the JSON of an append, or names another
   *     space or feed than the path
   */
  static AppendBody read(byte[] body, String space, String feed) {
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .decode(java.nio.ByteBuffer.wrap(body)).toString();
    } catch (CharacterCodingException e) {
      throw new InvalidValueException("body", "must be UTF-8 JSON", "bytes that are not UTF-8");
    }
    AppendBody append = new AppendBody(space, feed);
    try {
      append.read(new JsonScanner(text));
    } catch (JsonScanner.Malformed e) {
      throw new InvalidValueException("body", SHAPE, RateLimitedLog.clip(e.getMessage()));
    }
    return append;
  }

  /** The bytes of data the blocks carry, which the caller's append rate is charged with. */
  long dataBytes() {
    return blocks.stream().mapToLong(block -> block.data.length).sum();
  }

  /**
   * The append, checked by the API's rules.
   *
   * @throws InvalidValueException naming the field of a value that breaks one
   * @throws dev.feedstore.core.LimitExceededException naming the setting of a limit passed
   */
  AppendCommand command(Limits limits) {
    Optional<Namespace> ns = namespace.map(value -> Requests.namespace(value, "namespace"));
    Requests.blockCount(blocks.size(), limits);
    List<Block> domain = new ArrayList<>(blocks.size());
    for (int i = 0; i < blocks.size(); i++) {
      Fields block = blocks.get(i);
      String field = "blocks[" + i + "]";
      if (block.position.isPresent()) {
        throw Requests.positionGiven(field, block.position.getAsLong());
      }
      Requests.blockData(field, block.data.length, limits);
      domain.add(block(block, field));
    }
    return new AppendCommand(Requests.spaceId(space), ns, domain);
  }

  private Block block(Fields block, String field) {
    BlockKey key = new BlockKey(
        Requests.named(field + ".feed_id", () -> new FeedId(feed)),
        Requests.named(field + ".actor_id", () -> new ActorId(block.actorId)),
        Requests.named(field + ".sequence", () -> new Sequence(block.sequence)));
    if (block.prevActorId.isPresent() != block.prevSequence.isPresent()) {
      boolean actor = block.prevActorId.isPresent();
      throw new InvalidValueException(field + (actor ? ".prev_sequence" : ".prev_actor_id"), "must be present when "
          + (actor ? "prev_actor_id" : "prev_sequence") + " is (a predecessor has both or neither)", "absent");
    }
    Optional<Predecessor> predecessor = block.prevActorId.isEmpty() ? Optional.empty() : Optional.of(new Predecessor(
        Requests.named(field + ".prev_actor_id", () -> new ActorId(block.prevActorId.get())),
        Requests.named(field + ".prev_sequence", () -> new Sequence(block.prevSequence.getAsLong()))));
    if (block.receivedAt.isPresent()) {
      throw new InvalidValueException(field + ".received_at", "must be absent when position is (only the authority"
          + " sets it)", block.receivedAt.getAsLong());
    }
    try {
      return Block.unpositioned(key, predecessor, block.timestamp, BlockData.copyOf(block.data));
    } catch (InvalidValueException e) {
      throw e.withField(field + (e.field().equals("prevSequence") ? ".prev_sequence" : "." + e.field()));
    }
  }

  private void read(JsonScanner json) {
    json.beginObject();
    Set<String> seen = new HashSet<>();
    for (String name = json.nextName(true); name != null; name = json.nextName(false)) {
      String field = JsonBody.canonical(name, "", seen);
      if (json.nullValue()) {
        continue;
      }
      switch (field) {
        case "request_id" -> json.string();
        case "space_id" -> JsonBody.sameAsPath("space_id", json.string(), space, "space");
        case "namespace" -> namespace = Optional.of(json.string());
        case "blocks" -> readBlocks(json);
        default -> throw JsonBody.unknown(name, "an append", "namespace, blocks");
      }
    }
    json.end();
  }

  private void readBlocks(JsonScanner json) {
    json.beginArray();
    for (boolean first = true; json.hasNext(first); first = false) {
      String at = "blocks[" + blocks.size() + "]";
      Fields block = new Fields();
      json.beginObject();
      Set<String> seen = new HashSet<>();
      for (String name = json.nextName(true); name != null; name = json.nextName(false)) {
        String field = JsonBody.canonical(name, at + ".", seen);
        if (json.nullValue()) {
          continue;
        }
        switch (field) {
          case "feed_id" -> JsonBody.sameAsPath(at + ".feed_id", json.string(), feed, "feed");
          case "actor_id" -> block.actorId = json.string();
          case "sequence" -> block.sequence = JsonBody.whole(json, at + ".sequence");
          case "prev_actor_id" -> block.prevActorId = Optional.of(json.string());
          case "prev_sequence" -> block.prevSequence = OptionalLong.of(JsonBody.whole(json, at + ".prev_sequence"));
          case "timestamp" -> block.timestamp = JsonBody.whole(json, at + ".timestamp");
          case "data" -> block.data = base64(json.string(), at + ".data");
          case "position" -> block.position = OptionalLong.of(JsonBody.whole(json, at + ".position"));
          case "received_at" -> block.receivedAt = OptionalLong.of(JsonBody.whole(json, at + ".received_at"));
          default -> throw JsonBody.unknown(name, at, "actor_id, sequence, prev_actor_id, prev_sequence, timestamp, data");
        }
      }
      blocks.add(block);
    }
  }

  private static byte[] base64(String text, String field) {
    try {
      boolean url = text.indexOf('-') >= 0 || text.indexOf('_') >= 0;
      return (url ? Base64.getUrlDecoder() : Base64.getDecoder()).decode(text);
    } catch (IllegalArgumentException e) {
      throw new JsonScanner.Malformed(field + " is not base64: " + e.getMessage());
    }
  }
}
