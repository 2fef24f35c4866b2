package dev.feedstore.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.feedstore.core.SpaceId;
import dev.feedstore.proto.v1.LiveQueryEvent;
import dev.feedstore.proto.v1.LiveQueryRequest;
import dev.feedstore.proto.v1.LiveRow;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code feedctl live "QUERY"}: follows a live query with the LiveQuery stream, printing the
 * snapshot's rows, then each change batch's rows as it commits ({@code +} entered, {@code ~}
 * updated, {@code -} left, each {@code KEY @POSITION CONTENT}), until interrupted, until {@code
 * --count} batches, or until the server ends the stream. With {@code --json}, one object per row
 * ({@code "type"}: {@code row}, {@code entered}, {@code updated}, {@code left}) and per {@code ready},
 * {@code reset} and {@code heartbeat}, each with the {@code position} and the event's {@code
 * resume_token} when it has one. Not thread-safe.
 */
@Command(name = "live", sortOptions = false, usageHelpWidth = 100,
    description = {"Follows a live query: prints its result, then its changes as they commit, until interrupted"
        + " (Ctrl-C). The query in its text or JSON form (docs/live-queries.md).",
        "Example: feedctl live --space work 'key:/id where /status = \"open\" order receivedAt desc limit 50'"})
final class LiveCommand implements Callable<Integer> {
  private static final JsonFactory JSON = new JsonFactory();

  @Spec CommandSpec spec;

  @Option(names = "--space", required = true, paramLabel = "SPACE", description = "The space.")
  SpaceId space;

  @Parameters(index = "0", paramLabel = "QUERY", description = "The query, in its text or JSON form.")
  String query;

  @Option(names = "--count", paramLabel = "N",
      description = "Exit after N change batches (0: once the result is printed).")
  Long count;

  @Mixin ServerOptions server;
  @Mixin OutputOptions output;

  private PrintWriter out;

  @Override
  public Integer call() {
    if (count != null) {
      Checks.atLeast("--count", count, 0);
    }
    out = spec.commandLine().getOut();
    Printer printer = output.printer(out, spec.commandLine().getErr());
    long batches = 0;
    try (AuthorityConnection authority = server.connect();
        AuthorityConnection.StreamCall<LiveQueryEvent> call = authority.liveQuery(LiveQueryRequest.newBuilder()
            .setSpaceId(space.value()).setText(query))) {
      Iterator<LiveQueryEvent> events = call.events();
      while (events.hasNext()) {
        LiveQueryEvent event = events.next();
        switch (event.getEventCase()) {
          case ACK -> printer.remark("live query " + event.getAck().getQuery() + " on space " + space
              + " at position " + event.getPosition() + (event.getAck().getResumed() ? " (resumed)" : ""));
          case RESET -> {
            printer.remark("-- reset: " + event.getReset().getReason());
            marker(event, "reset");
          }
          case SNAPSHOT -> event.getSnapshot().getRowsList().forEach(row -> row("row", ' ', row, event));
          case READY -> {
            marker(event, "ready");
            printer.remark("-- ready at position " + event.getPosition() + "; changes follow as they commit."
                + " Ctrl-C stops.");
            if (count != null && count == 0) {
              return FeedCtl.Exit.OK;
            }
          }
          case CHANGES -> {
            event.getChanges().getEnteredList().forEach(row -> row("entered", '+', row, event));
            event.getChanges().getUpdatedList().forEach(update -> row("updated", '~', update.getCurrent(), event));
            event.getChanges().getLeftList().forEach(row -> row("left", '-', row, event));
            if (count != null && ++batches >= count) {
              return FeedCtl.Exit.OK;
            }
          }
          case HEARTBEAT -> marker(event, "heartbeat");
          default -> { }
        }
        out.flush();
      }
    }
    throw new CliException("the server ended the stream without a status", FeedCtl.Exit.UNREACHABLE);
  }

  private void row(String type, char mark, LiveRow row, LiveQueryEvent event) {
    String key = row.hasIntKey() ? Long.toString(row.getIntKey()) : quoted(row.getStringKey());
    if (!output.json) {
      out.println(mark + " " + key + " @" + row.getPosition() + (type.equals("left") ? ""
          : "  " + (row.hasContent() ? row.getContent() : "(not JSON)")));
      return;
    }
    line(json -> {
      json.writeStringField("type", type);
      json.writeFieldName("key");
      json.writeRawValue(key);
      json.writeNumberField("position", row.getPosition());
      if (row.hasContent() && !type.equals("left")) {
        json.writeFieldName("content");
        json.writeRawValue(row.getContent());
      }
      json.writeNumberField("at", event.getPosition());
      if (!event.getResumeToken().isEmpty()) {
        json.writeStringField("resume_token", event.getResumeToken());
      }
    });
  }

  /** An event without rows, as a JSON line (people see the remarks instead). */
  private void marker(LiveQueryEvent event, String type) {
    if (output.json) {
      line(json -> {
        json.writeStringField("type", type);
        json.writeNumberField("position", event.getPosition());
        if (!event.getResumeToken().isEmpty()) {
          json.writeStringField("resume_token", event.getResumeToken());
        }
      });
    }
  }

  private void line(JsonPrinter.Fields fields) {
    JsonPrinter.line(out, fields);
  }

  private static String quoted(String key) {
    StringWriter text = new StringWriter();
    try (JsonGenerator json = JSON.createGenerator(text)) {
      json.writeString(key);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return text.toString();
  }
}
