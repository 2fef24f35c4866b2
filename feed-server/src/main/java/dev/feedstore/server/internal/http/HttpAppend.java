package dev.feedstore.server.internal.http;

import static dev.feedstore.server.settings.ServerSettings.MAX_MESSAGE_BYTES;

import dev.feedstore.core.InvalidValueException;
import dev.feedstore.server.internal.access.Caller;
import dev.feedstore.server.internal.authority.AppendCommand;
import dev.feedstore.server.internal.core.ServerCore;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import java.util.Arrays;

/**
 * {@code POST /v1/spaces/{space}/feeds/{feed}/blocks}: an append with Append's rules (one
 * transaction, the same validation, idempotent for blocks stored with the same content, 409 naming
 * the keys stored with other content). The body is the JSON of an {@code AppendRequest} without
 * its space and feed, which the path gives ({@link AppendBody}): {@code {"namespace": "chat",
 * "blocks": [{"actor_id": "a", "sequence": 0, "timestamp": 1700000000000, "data": "aGVsbG8="}]}}
 * ({@code data} in base64; {@code prev_actor_id}/{@code prev_sequence} name the predecessor). The
 * answer is {@code {"positions": [...], "received_at": [...], "server_token": ...}}: a position and
 * a receive time (Unix ms, -1 where unknown) per block.
 *
 * <p>The body is read without blocking, at most {@code max-message-bytes} of it (413 beyond, once the
 * rest has been read as {@link RequestBody} tells). The caller's {@code
 * principal-append-bytes-per-second} is charged with its size before it is stored. Thread-safe.
 */
final class HttpAppend {
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
      AppendBody append = AppendBody.read(body, space, feed);
      core.principalLimits().admitAppend(caller.principal(), append.dataBytes());
      // Answered from the thread that answers the append's group: no thread waits for it meanwhile.
      AppendCommand command = core.blockAccess().append(caller, "Append",
          append.command(core.settings().limits()));
      core.authority().append(command, (result, failure) -> {
        if (failure != null) {
          exchange.fail(failure);
          return;
        }
        core.metrics().appended(result.positions().length);
        exchange.json(200, Json.object()
            .raw("positions", Arrays.toString(result.positions()).replace(" ", ""))
            .raw("received_at", Arrays.toString(result.receivedAt()).replace(" ", ""))
            .field("server_token", result.token().value())
            .end());
      });
    } catch (RuntimeException e) {
      exchange.fail(e);
    }
  }
}
