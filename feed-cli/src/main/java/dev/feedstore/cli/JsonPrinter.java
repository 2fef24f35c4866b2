package dev.feedstore.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.DurableSubscription;
import dev.feedstore.proto.v1.FeedInfo;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Optional;

/**
 * JSON lines on standard output, one object per line, each with a {@code "type"}:
 *
 * <ul>
 *   <li>{@code block}: {@code space_id, feed_id, namespace?, actor_id, sequence, prev_actor_id?,
 *       prev_sequence?, position, timestamp, received_at?} (Unix ms; {@code received_at} is when the
 *       server positioned the block, by its clock) and either {@code data} (the data as text,
 *       when it is valid UTF-8) or {@code data_base64};
 *   <li>{@code feed}: {@code space_id, feed_id, namespace?, block_count, last_position};
 *   <li>{@code appended}: {@code space_id, feed_id, actor_id, sequence, position};
 *   <li>{@code created}: the same, plus {@code namespace?};
 *   <li>{@code caught_up} and {@code heartbeat}: {@code max_position}.
 * </ul>
 *
 * Fields marked {@code ?} are left out when absent. Remarks for people (summaries, retries,
 * reconnections) go to standard error as plain lines, so standard output holds only JSON.
 */
final class JsonPrinter implements Printer {
  private static final JsonFactory JSON = new JsonFactory();

  private final PrintWriter out;
  private final PrintWriter err;

  JsonPrinter(PrintWriter out, PrintWriter err) {
    this.out = out;
    this.err = err;
  }

  @Override
  public void block(String spaceId, Block block, Optional<String> namespace) {
    line(json -> {
      json.writeStringField("type", "block");
      json.writeStringField("space_id", spaceId);
      json.writeStringField("feed_id", block.getFeedId());
      if (namespace.isPresent()) {
        json.writeStringField("namespace", namespace.get());
      }
      json.writeStringField("actor_id", block.getActorId());
      json.writeNumberField("sequence", block.getSequence());
      if (block.hasPrevActorId()) {
        json.writeStringField("prev_actor_id", block.getPrevActorId());
        json.writeNumberField("prev_sequence", block.getPrevSequence());
      }
      json.writeNumberField("position", block.getPosition());
      json.writeNumberField("timestamp", block.getTimestamp());
      if (block.hasReceivedAt()) {
        json.writeNumberField("received_at", block.getReceivedAt());
      }
      Optional<String> text = DataText.utf8(block.getData());
      if (text.isPresent()) {
        json.writeStringField("data", text.get());
      } else {
        json.writeStringField("data_base64", DataText.base64(block.getData()));
      }
    });
  }

  @Override
  public void feed(String spaceId, FeedInfo feed) {
    line(json -> {
      json.writeStringField("type", "feed");
      json.writeStringField("space_id", spaceId);
      json.writeStringField("feed_id", feed.getFeedId());
      if (feed.hasNamespace()) {
        json.writeStringField("namespace", feed.getNamespace());
      }
      json.writeNumberField("block_count", feed.getBlockCount());
      json.writeNumberField("last_position", feed.getLastPosition());
    });
  }

  @Override
  public void subscription(String spaceId, DurableSubscription subscription) {
    line(json -> {
      json.writeStringField("type", "subscription");
      json.writeStringField("space_id", spaceId);
      json.writeStringField("subscription_id", subscription.getSubscriptionId());
      if (subscription.hasName()) {
        json.writeStringField("name", subscription.getName());
      }
      json.writeNumberField("acked", subscription.getAcked());
      json.writeNumberField("lag", subscription.getLag());
      json.writeNumberField("expires_at", subscription.getExpiresAt());
      json.writeBooleanField("expired", subscription.getExpired());
    });
  }

  @Override
  public void appended(String spaceId, Block block, long position) {
    line(json -> {
      json.writeStringField("type", "appended");
      key(json, spaceId, block, position);
    });
  }

  @Override
  public void created(String spaceId, Block first, Optional<String> namespace, long position) {
    line(json -> {
      json.writeStringField("type", "created");
      key(json, spaceId, first, position);
      if (namespace.isPresent()) {
        json.writeStringField("namespace", namespace.get());
      }
    });
  }

  @Override
  public void caughtUp(long maxPosition) {
    line(json -> {
      json.writeStringField("type", "caught_up");
      json.writeNumberField("max_position", maxPosition);
    });
  }

  @Override
  public void heartbeat(long maxPosition) {
    line(json -> {
      json.writeStringField("type", "heartbeat");
      json.writeNumberField("max_position", maxPosition);
    });
  }

  @Override
  public void remark(String text) {
    err.println(text);
    err.flush();
  }

  private static void key(JsonGenerator json, String spaceId, Block block, long position) throws IOException {
    json.writeStringField("space_id", spaceId);
    json.writeStringField("feed_id", block.getFeedId());
    json.writeStringField("actor_id", block.getActorId());
    json.writeNumberField("sequence", block.getSequence());
    json.writeNumberField("position", position);
  }

  /** The fields of one JSON line. */
  interface Fields {
    void write(JsonGenerator json) throws IOException;
  }

  private void line(Fields fields) {
    line(out, fields);
  }

  /** Prints one JSON object with {@code fields} as a line of {@code out}, and flushes it. */
  static void line(PrintWriter out, Fields fields) {
    StringWriter text = new StringWriter();
    try (JsonGenerator json = JSON.createGenerator(text)) {
      json.writeStartObject();
      fields.write(json);
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter does not fail
    }
    out.println(text);
    out.flush();
  }
}
