package dev.feedstore.server.internal.http;

import static dev.feedstore.server.settings.ServerSettings.MAX_MESSAGE_BYTES;

import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.LimitExceededException;
import dev.feedstore.server.internal.core.ServerCore;
import dev.feedstore.server.internal.errors.ShuttingDownException;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/**
 * The JSON body of a request of the API: read without blocking, at most {@code max-message-bytes}
 * of it (413 beyond, once the rest has been read as {@link RequestBody} tells), and read as a JSON
 * object of the fields of the API's request it stands for ({@link JsonScanner}: the API's field
 * names in snake_case or lowerCamelCase, 64-bit numbers as JSON numbers or strings, unknown fields
 * refused), so that the API's rules ({@code Requests}) name its fields. Stateless and thread-safe.
 */
final class JsonBody {
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

  /** What a field of a body holds. */
  enum Kind {
    /** A string. */
    TEXT,
    /** A whole number of 64 bits, as a JSON number or a string. */
    WHOLE,
    /** {@code true} or {@code false}. */
    FLAG,
    /** An array of strings. */
    TEXTS
  }

  /** The fields a body gave, by their snake_case names; a field left out or {@code null} is absent. */
  record Fields(Map<String, Object> values) {
    Optional<String> text(String name) {
      return Optional.ofNullable((String) values.get(name));
    }

    OptionalLong whole(String name) {
      Long value = (Long) values.get(name);
      return value == null ? OptionalLong.empty() : OptionalLong.of(value);
    }

    boolean flag(String name) {
      return Boolean.TRUE.equals(values.get(name));
    }

    @SuppressWarnings("unchecked")
    List<String> texts(String name) {
      return (List<String>) values.getOrDefault(name, List.of());
    }
  }

  /**
   * Reads {@code body}, a JSON object of the fields {@code kinds} names (by their snake_case names,
   * or the lowerCamelCase of protobuf's JSON), besides {@code request_id} and {@code space_id},
   * which must be left out or be {@code space}, the path's.
   *
   * @param shape the body the endpoint takes, for the refusal: {@code {"up_to": N}}
   * @throws InvalidValueException naming {@code body} if it is not UTF-8 JSON of that shape, or the
   *     field that names another space
   */
  static Fields parse(byte[] body, String shape, String space, Map<String, Kind> kinds) {
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(body)).toString();
    } catch (CharacterCodingException e) {
      throw new InvalidValueException("body", "must be UTF-8 JSON", "bytes that are not UTF-8");
    }
    Map<String, Object> values = new HashMap<>();
    try {
      JsonScanner json = new JsonScanner(text);
      json.beginObject();
      Set<String> seen = new HashSet<>();
      for (String name = json.nextName(true); name != null; name = json.nextName(false)) {
        String field = canonical(name, "", seen);
        if (json.nullValue()) {
          continue;
        }
        if (field.equals("request_id")) {
          json.string();
        } else if (field.equals("space_id")) {
          sameAsPath("space_id", json.string(), space, "space");
        } else if (kinds.containsKey(field)) {
          values.put(field, value(json, field, kinds.get(field)));
        } else {
          throw unknown(name, "the body", String.join(", ", new TreeSet<>(kinds.keySet())));
        }
      }
      json.end();
    } catch (JsonScanner.Malformed e) {
      throw new InvalidValueException("body", "must be the JSON " + shape + "; the parser said",
          RateLimitedLog.clip(e.getMessage()));
    }
    return new Fields(values);
  }

  private static Object value(JsonScanner json, String field, Kind kind) {
    return switch (kind) {
      case TEXT -> json.string();
      case WHOLE -> whole(json, field);
      case FLAG -> json.bool();
      case TEXTS -> {
        List<String> texts = new ArrayList<>();
        json.beginArray();
        for (boolean first = true; json.hasNext(first); first = false) {
          texts.add(json.string());
        }
        yield texts;
      }
    };
  }

  /** A field's snake_case name ({@code actorId} is {@code actor_id}), once per object. */
  static String canonical(String name, String at, Set<String> seen) {
    StringBuilder snake = new StringBuilder(name.length() + 4);
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c >= 'A' && c <= 'Z') {
        snake.append('_').append((char) (c - 'A' + 'a'));
      } else {
        snake.append(c);
      }
    }
    String field = snake.toString();
    if (!seen.add(field)) {
      throw new JsonScanner.Malformed(at + field + " is given twice");
    }
    return field;
  }

  static JsonScanner.Malformed unknown(String name, String in, String known) {
    return new JsonScanner.Malformed("unknown field '" + RateLimitedLog.clip(name) + "' in " + in + " (it has "
        + known + ")");
  }

  /** A field the path names already: left out, or the path's value. */
  static void sameAsPath(String field, String value, String path, String what) {
    if (!value.isEmpty() && !value.equals(path)) {
      throw new InvalidValueException(field, "must be left out or be the path's " + what + " '"
          + RateLimitedLog.clip(path) + "'", RateLimitedLog.clip(value));
    }
  }

  /** A whole number, from a JSON number or a string holding one, that fits 64 bits. */
  static long whole(JsonScanner json, String field) {
    String text = json.atString() ? json.string().strip() : json.number();
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException notPlain) {
      try {
        return new BigDecimal(text).longValueExact();
      } catch (NumberFormatException | ArithmeticException e) {
        throw new JsonScanner.Malformed(field + " is not a whole number of 64 bits: " + RateLimitedLog.clip(text));
      }
    }
  }

}
