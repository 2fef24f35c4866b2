package dev.feedstore.bench;

import java.io.BufferedReader;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;

/**
 * One event stream of {@link CompressionBench}, read on a thread of its own: the bytes it received
 * as they came on the wire (gzipped or not), its events decoded line by line (inflated as they
 * arrive when gzipped), counted down once at its {@code caught-up} event and once at the block at
 * the target position. Thread-safe.
 */
final class SseFollower {
  private final HttpResponse<InputStream> response;
  private final AtomicLong wire = new AtomicLong();
  private final AtomicLong opening = new AtomicLong();
  private final Thread reader;

  SseFollower(HttpResponse<InputStream> response, boolean gzip, long target, CountDownLatch caughtUp,
      CountDownLatch received) {
    if (response.statusCode() != 200) {
      throw new IllegalStateException("an event stream was answered " + response.statusCode());
    }
    boolean gzipped = response.headers().firstValue("Content-Encoding").filter("gzip"::equals).isPresent();
    if (gzipped != gzip) {
      throw new IllegalStateException("an event stream came " + (gzipped ? "gzipped" : "plain") + " to a client"
          + " that " + (gzip ? "takes" : "does not take") + " gzip");
    }
    this.response = response;
    this.reader = new Thread(() -> read(gzip, target, caughtUp, received), "sse-follower");
    reader.setDaemon(true);
    reader.start();
  }

  /** The bytes received after the stream's opening (its token and caught-up events). */
  long bytesAfterOpening() {
    return wire.get() - opening.get();
  }

  private void read(boolean gzip, long target, CountDownLatch caughtUp, CountDownLatch received) {
    InputStream counted = new FilterInputStream(response.body()) {
      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        wire.addAndGet(Math.max(n, 0));
        return n;
      }
    };
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(gzip ? available(new GZIPInputStream(counted))
        : counted, StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        if (line.equals("event: caught-up")) {
          opening.set(wire.get()); // nothing was appended before every stream caught up
          caughtUp.countDown();
        } else if (line.startsWith("id:") && Long.parseLong(line.substring(3).strip()) == target) {
          received.countDown();
          return;
        }
      }
    } catch (IOException e) {
      // closed
    }
  }

  /**
   * {@code in}, saying it has nothing available: an inflater always says it has, and a reader that
   * believes it waits for the next event before it hands on this one.
   */
  private static InputStream available(InputStream in) {
    return new FilterInputStream(in) {
      @Override
      public int available() {
        return 0;
      }
    };
  }

  void close() {
    try {
      response.body().close();
    } catch (IOException e) {
      // closing a stream the server may have ended already
    }
    reader.interrupt();
  }
}
