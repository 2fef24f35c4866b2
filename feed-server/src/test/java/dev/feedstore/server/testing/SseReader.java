package dev.feedstore.server.testing;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.FilterInputStream;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;

/**
 * One Server-Sent Events stream over java.net.http, parsed as a browser's EventSource does:
 * {@code id:}, {@code event:} and {@code data:} lines up to a blank line make an event; comment
 * lines are kept apart; a stream sent with {@code Content-Encoding: gzip} is inflated as it arrives,
 * as a browser does. A thread of its own reads it. Close it when done. Thread-safe.
 */
public final class SseReader implements AutoCloseable {
  /** One event: its name ("message" for blocks), its id (or null) and its data. */
  public record Event(String name, String id, String data) {
    public JsonObject json() {
      return JsonParser.parseString(data).getAsJsonObject();
    }

    /** The block's position, for a block event. */
    public long position() {
      return Long.parseLong(id);
    }
  }

  private final HttpResponse<InputStream> response;
  private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
  private final BlockingQueue<String> comments = new LinkedBlockingQueue<>();
  private final CompletableFuture<Void> ended = new CompletableFuture<>();
  private final Thread reader;
  private final Object gate = new Object();
  /** Guarded by gate: while true, the reader thread reads nothing, as a stalled client would. */
  private boolean paused;

  private SseReader(HttpResponse<InputStream> response) {
    this.response = response;
    this.reader = new Thread(this::read, "sse-reader");
    reader.setDaemon(true);
    reader.start();
  }

  /** Opens {@code request} and, when it is answered 200, reads its events. */
  public static SseReader open(Http http, HttpRequest request) {
    try {
      HttpResponse<InputStream> response = http.client().send(request, HttpResponse.BodyHandlers.ofInputStream());
      return new SseReader(response);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Opens {@code GET path} of {@code http}, with {@code headers} as name, value pairs. */
  public static SseReader open(Http http, String path, String... headers) {
    HttpRequest.Builder request = http.request(path).timeout(Duration.ofDays(1)).GET();
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return open(http, request.build());
  }

  public HttpResponse<InputStream> response() {
    return response;
  }

  /** The next event, waiting up to 30 s. */
  public Event next() {
    return next(Duration.ofSeconds(30));
  }

  public Event next(Duration timeout) {
    try {
      Event event = events.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (event == null) {
        throw new AssertionError("no event within " + timeout + (ended.isDone() ? " (the stream ended)" : ""));
      }
      return event;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** The next event with name {@code name}, skipping others. */
  public Event next(String name) {
    while (true) {
      Event event = next();
      if (event.name().equals(name)) {
        return event;
      }
    }
  }

  /** Block events until {@code count} blocks arrived, then their positions in order; fails on any named event but token ones and caught-up. */
  public List<Long> positions(int count) {
    List<Long> positions = new ArrayList<>();
    while (positions.size() < count) {
      Event event = next();
      if (event.name().equals("message")) {
        positions.add(event.position());
      } else if (!event.name().equals("caught-up") && !event.name().equals("server-token")) {
        throw new AssertionError("unexpected event " + event);
      }
    }
    return positions;
  }

  /** The next comment line (without its colon), waiting up to 30 s. */
  public String nextComment() {
    try {
      String comment = comments.poll(30, TimeUnit.SECONDS);
      if (comment == null) {
        throw new AssertionError("no comment within 30 s");
      }
      return comment;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Stops reading from the connection, as a client that stalls does, until {@link #resume}. */
  public void pause() {
    synchronized (gate) {
      paused = true;
    }
  }

  public void resume() {
    synchronized (gate) {
      paused = false;
      gate.notifyAll();
    }
  }

  /** Waits (30 s at most) until the server ends the stream. */
  public void awaitEnd() {
    try {
      ended.get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("the stream did not end", e);
    }
  }

  /** The events received and not taken yet, in order; after {@link #awaitEnd}, all that is left of the stream. */
  public List<Event> drain() {
    List<Event> taken = new ArrayList<>();
    events.drainTo(taken);
    return taken;
  }

  public boolean ended() {
    return ended.isDone();
  }

  private void read() {
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(body(), StandardCharsets.UTF_8))) {
      String name = "message";
      String id = null;
      StringBuilder data = null;
      String line;
      while (awaitUnpaused() && (line = lines.readLine()) != null) {
        if (line.isEmpty()) {
          if (data != null) {
            events.add(new Event(name, id, data.toString()));
          }
          name = "message";
          id = null;
          data = null;
        } else if (line.startsWith(":")) {
          comments.add(line.substring(1).strip());
        } else if (line.startsWith("event:")) {
          name = line.substring(6).strip();
        } else if (line.startsWith("id:")) {
          id = line.substring(3).strip();
        } else if (line.startsWith("data:")) {
          data = (data == null ? new StringBuilder() : data.append('\n')).append(line.substring(5).strip());
        }
      }
    } catch (IOException e) {
      // closed by us or by the server
    } finally {
      ended.complete(null);
    }
  }

  /**
   * The body as sent, or inflated when it came gzipped (which reads gzip's header, so on the reading
   * thread). The inflating stream says it has nothing available, as is true of all it received:
   * an inflater always says it has, and a reader that believes it waits for the next event before
   * it hands on this one.
   */
  private InputStream body() throws IOException {
    boolean gzipped = response.headers().firstValue("Content-Encoding").filter("gzip"::equalsIgnoreCase).isPresent();
    if (!gzipped) {
      return response.body();
    }
    return new FilterInputStream(new GZIPInputStream(response.body())) {
      @Override
      public int available() {
        return 0;
      }
    };
  }

  private boolean awaitUnpaused() {
    synchronized (gate) {
      while (paused) {
        try {
          gate.wait();
        } catch (InterruptedException e) {
          return false;
        }
      }
    }
    return true;
  }

  @Override
  public void close() {
    try {
      response.body().close();
    } catch (IOException e) {
      // closing a stream the server may have ended already
    }
    reader.interrupt();
  }
}
