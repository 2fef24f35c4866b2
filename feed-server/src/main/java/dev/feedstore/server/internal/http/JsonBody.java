package dev.feedstore.server.internal.http;

import static dev.feedstore.server.settings.ServerSettings.MAX_MESSAGE_BYTES;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.LimitExceededException;
import dev.feedstore.server.internal.core.ServerCore;
import dev.feedstore.server.internal.errors.ShuttingDownException;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/**
 * The JSON body of a request of the API: read without blocking, at most {@code max-message-bytes}
 * of it (413 beyond, once the rest has been read as {@link RequestBody} tells), and read as the JSON
 * of the {@code feed.v1} request it stands for ({@code JsonFormat}: the wire's field names in
 * snake_case, 64-bit numbers as JSON numbers or strings, bytes in base64, unknown fields refused),
 * so that the wire's validation ({@code WireRequests}) names its fields. Stateless and thread-safe.
 */
final class JsonBody {
  private static final JsonFormat.Parser PARSER = JsonFormat.parser();

  private JsonBody() {}

  /**
   * Reads the body of {@code exchange} and runs {@code then} with it on the request executor; a
   * failure there, a body over the limit and one that does not arrive whole are answered as their
   * refusal. Every outcome goes on on the request executor: the store's work blocks, and a refusal
   * first reads what is left of the body ({@link HttpExchange#fail}), which is not done from inside
   * this read.
   */
  static void read(HttpExchange exchange, ServerCore core, Consumer<byte[]> then) {
    int max = core.settings().get(MAX_MESSAGE_BYTES);
    RequestBody.read(exchange.request(), max, new RequestBody.Reader() {
      @Override
      public void whole(byte[] body) {
        dispatch(exchange, core, () -> then.accept(body));
      }

      @Override
      public void tooLarge(long seen) {
        dispatch(exchange, core, () -> exchange.fail(
            new LimitExceededException(MAX_MESSAGE_BYTES.name(), max, seen, "the request body")));
      }

      @Override
      public void failed(Throwable failure) {
        dispatch(exchange, core, () -> exchange.fail(new InvalidValueException("body", "must arrive whole",
            RateLimitedLog.clip(String.valueOf(failure)))));
      }
    });
  }

  private static void dispatch(HttpExchange exchange, ServerCore core, Runnable work) {
    try {
      core.requestExecutor().execute(() -> {
        try {
          work.run();
        } catch (RuntimeException e) {
          exchange.fail(e);
        }
      });
    } catch (RejectedExecutionException e) {
      exchange.fail(new ShuttingDownException());
    }
  }

  /**
   * Merges {@code body} into {@code into} as the JSON of its message.
   *
   * @param shape the body the endpoint takes, for the refusal: {@code {"up_to": N}}
   * @throws InvalidValueException naming {@code body} if it is not UTF-8 JSON of that message
   */
  static <B extends Message.Builder> B parse(byte[] body, B into, String shape) {
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(body)).toString();
    } catch (CharacterCodingException e) {
      throw new InvalidValueException("body", "must be UTF-8 JSON", "bytes that are not UTF-8");
    }
    try {
      PARSER.merge(text, into);
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      throw new InvalidValueException("body", "must be the JSON " + shape + "; the parser said",
          RateLimitedLog.clip(String.valueOf(e.getMessage())));
    }
    return into;
  }

  /**
   * Checks a field of the body that the path gives too: left out (empty) or the same.
   *
   * @param what what the path names, for the refusal: {@code space}
   * @throws InvalidValueException naming {@code field} otherwise
   */
  static void samePath(String field, String given, String fromPath, String what) {
    if (!given.isEmpty() && !given.equals(fromPath)) {
      throw new InvalidValueException(field, "must be left out or be the path's " + what + " '"
          + RateLimitedLog.clip(fromPath) + "'", RateLimitedLog.clip(given));
    }
  }
}
