package dev.feedstore.server.internal.http;

import static dev.feedstore.server.settings.ServerSettings.MAX_MESSAGE_BYTES;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.feedstore.core.InvalidValueException;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.server.internal.access.Caller;
import dev.feedstore.server.internal.authority.AppendCommand;
import dev.feedstore.server.internal.core.ServerCore;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import dev.feedstore.server.internal.wire.WireRequests;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * {@code POST /v1/spaces/{space}/feeds/{feed}/blocks}: an append with Append's rules (one
 * transaction, the same validation, idempotent for blocks stored with the same content, 409 naming
 * the keys stored with other content). The body is the JSON of an {@code AppendRequest} without
 * its space and feed, which the path gives: {@code {"namespace": "chat", "blocks": [{"actor_id":
 * "a", "sequence": 0, "timestamp": 1700000000000, "data": "aGVsbG8="}]}} ({@code data} in base64;
 * {@code prev_actor_id}/{@code prev_sequence} name the predecessor). The answer is {@code
 * {"positions": [...], "server_token": ...}}.
 *
 * <p>The body is read without blocking, at most {@code max-message-bytes} of it (413 beyond, once the
 * rest has been read as {@link RequestBody} tells). The caller's {@code
 * principal-append-bytes-per-second} is charged with its size before it is stored. Thread-safe.
 */
final class HttpAppend {
  private static final JsonFormat.Parser PARSER = JsonFormat.parser();

  private final ServerCore core;

  HttpAppend(ServerCore core) {
    this.core = core;
  }

  void append(HttpExchange exchange, Caller caller, String feed) {
    int max = core.settings().get(MAX_MESSAGE_BYTES);
    String space = exchange.space();
    // Every outcome goes on on the request executor: the store's work blocks, and a refusal first
    // reads what is left of the body (HttpExchange.fail), which is not done from inside this read.
    exchange.readBody(max, body -> store(exchange, caller, space, feed, body));
  }

  private void store(HttpExchange exchange, Caller caller, String space, String feed, byte[] body) {
    try {
      AppendRequest request = parse(body, space, feed);
      long bytes = request.getBlocksList().stream().mapToLong(block -> block.getData().size()).sum();
      core.principalLimits().admitAppend(caller.principal(), bytes);
      // Answered from the thread that answers the append's group: no thread waits for it meanwhile.
      AppendCommand command = core.blockAccess().append(caller, "Append",
          WireRequests.append(request, core.settings().limits()));
      core.authority().append(command, (result, failure) -> {
        if (failure != null) {
          exchange.fail(failure);
          return;
        }
        core.metrics().appended(result.positions().length);
        exchange.json(200, Json.object()
            .raw("positions", Arrays.toString(result.positions()).replace(" ", ""))
            .field("server_token", result.token().value())
            .end());
      });
    } catch (RuntimeException e) {
      exchange.fail(e);
    }
  }

  /** The body as an Append of {@code feed} in {@code space}. */
  static AppendRequest parse(byte[] body, String space, String feed) {
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .decode(java.nio.ByteBuffer.wrap(body)).toString();
    } catch (CharacterCodingException e) {
      throw new InvalidValueException("body", "must be UTF-8 JSON", "bytes that are not UTF-8");
    }
    AppendRequest.Builder request = AppendRequest.newBuilder();
    try {
      PARSER.merge(text, request);
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      throw new InvalidValueException("body", "must be the JSON of an append: {\"blocks\": [{\"actor_id\": ...,"
          + " \"sequence\": ..., \"timestamp\": ..., \"data\": BASE64}], \"namespace\": optional}; the parser said",
          RateLimitedLog.clip(String.valueOf(e.getMessage())));
    }
    if (!request.getSpaceId().isEmpty() && !request.getSpaceId().equals(space)) {
      throw new InvalidValueException("space_id", "must be left out or be the path's space '"
          + RateLimitedLog.clip(space) + "'", RateLimitedLog.clip(request.getSpaceId()));
    }
    request.setSpaceId(space);
    for (int i = 0; i < request.getBlocksCount(); i++) {
      Block block = request.getBlocks(i);
      if (!block.getFeedId().isEmpty() && !block.getFeedId().equals(feed)) {
        throw new InvalidValueException("blocks[" + i + "].feed_id", "must be left out or be the path's feed '"
            + RateLimitedLog.clip(feed) + "'", RateLimitedLog.clip(block.getFeedId()));
      }
      request.setBlocks(i, block.toBuilder().setFeedId(feed));
    }
    return request.build();
  }
}
