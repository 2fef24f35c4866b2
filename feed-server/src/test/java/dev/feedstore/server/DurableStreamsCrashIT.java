package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.server.testing.Http;
import dev.feedstore.server.testing.Streams;
import dev.feedstore.testing.Await;
import dev.feedstore.testing.ServerProcess;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Durable Streams outlive the process, where the protocol's reference server keeps them in memory:
 * clients append over HTTP to several streams (one with an idempotent producer) while the server
 * jar is killed with SIGKILL; after a restart on the same file every acknowledged append is read
 * back at its offset, in order, and the producer's request the kill cut off is answered when sent
 * again, written once whether or not it had committed.
 */
class DurableStreamsCrashIT {
  private static final int STREAMS = 4;

  @TempDir Path dir;
  ServerProcess server;
  ManagedChannel control;
  final AtomicBoolean stop = new AtomicBoolean();
  final List<Thread> writers = new ArrayList<>();

  /** What one writer saw acknowledged: each append's data and the offset it was given. */
  record Acked(String data, String offset) {}

  @AfterEach
  void tearDown() throws InterruptedException {
    stop.set(true);
    for (Thread writer : writers) {
      writer.join(TimeUnit.SECONDS.toMillis(30));
    }
    if (control != null) {
      control.shutdownNow();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void everyAcknowledgedAppendIsReadBackAtItsOffsetAfterSigkill() throws Exception {
    int port = ServerProcess.freePort();
    int httpPort = ServerProcess.freePort();
    server = ServerProcess.start(dir, "feeds.db", port, "--http-port", Integer.toString(httpPort));
    control = Grpc.newChannelBuilderForAddress("127.0.0.1", port, InsecureChannelCredentials.create()).build();
    server.awaitServing(control);
    Streams streams = new Streams(Http.on(httpPort));
    List<List<Acked>> acked = new ArrayList<>();
    List<String> starts = new ArrayList<>();
    for (int s = 0; s < STREAMS; s++) {
      HttpResponse<String> created = streams.create("crash/" + s, "text/plain", "");
      assertEquals(201, created.statusCode());
      starts.add(Streams.offset(created));
      List<Acked> list = new CopyOnWriteArrayList<>();
      acked.add(list);
      int stream = s;
      Thread writer = new Thread(() -> {
        for (int i = 0; !stop.get(); i++) {
          String data = "s" + stream + "-" + i + ";";
          String[] producer = stream == 0
              ? new String[] {"Producer-Id", "crash-writer", "Producer-Epoch", "0", "Producer-Seq", Integer.toString(i)}
              : new String[0];
          try {
            HttpResponse<String> response = streams.append("crash/" + stream, "text/plain", data, producer);
            if (response.statusCode() / 100 != 2) {
              return; // the server is going down
            }
            list.add(new Acked(data, Streams.offset(response)));
          } catch (UncheckedIOException e) {
            return; // killed mid-request: in doubt
          }
        }
      }, "stream-writer-" + s);
      writers.add(writer);
      writer.start();
    }
    Await.until("each writer has appends acknowledged", Duration.ofSeconds(60),
        () -> acked.stream().allMatch(list -> list.size() >= 50));
    server.kill();
    stop.set(true);
    for (Thread writer : writers) {
      writer.join(TimeUnit.SECONDS.toMillis(30));
    }
    server = ServerProcess.start(dir, "feeds.db", port, "--http-port", Integer.toString(httpPort));
    server.awaitServing(control);

    for (int s = 0; s < STREAMS; s++) {
      List<Acked> list = List.copyOf(acked.get(s));
      String previous = starts.get(s);
      for (Acked append : list) {
        HttpResponse<String> read = streams.read("crash/" + s, "offset=" + previous);
        assertEquals(200, read.statusCode());
        assertTrue(read.body().startsWith(append.data()), "stream " + s + " holds " + append.data() + " right after "
            + previous + ", read " + read.body().substring(0, Math.min(40, read.body().length())));
        previous = append.offset();
      }
      StringBuilder all = new StringBuilder();
      list.forEach(append -> all.append(append.data()));
      String whole = streams.read("crash/" + s, "offset=-1").body();
      assertTrue(whole.startsWith(all.toString()), "stream " + s + ": every acknowledged append, in order");
      String unacknowledged = whole.substring(all.length());
      assertTrue(unacknowledged.isEmpty() || unacknowledged.equals("s" + s + "-" + list.size() + ";"),
          "at most the one append the kill cut off follows: " + unacknowledged);
    }
    List<Acked> producer = List.copyOf(acked.get(0));
    String inDoubt = "s0-" + producer.size() + ";";
    HttpResponse<String> retry = streams.append("crash/0", "text/plain", inDoubt, "Producer-Id", "crash-writer",
        "Producer-Epoch", "0", "Producer-Seq", Integer.toString(producer.size()));
    assertTrue(retry.statusCode() == 200 || retry.statusCode() == 204, "the cut-off request is answered: " + retry);
    String after = streams.read("crash/0", "offset=" + producer.get(producer.size() - 1).offset()).body();
    assertEquals(inDoubt, after, "written exactly once");
  }
}
