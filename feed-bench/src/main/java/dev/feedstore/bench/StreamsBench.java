package dev.feedstore.bench;

import com.google.protobuf.ByteString;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.StreamName;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Iterator;

/**
 * Durable Streams over the HTTP API beside the gRPC figures of the same run. Appends: one client
 * POSTs one 256-byte message per request to one stream for {@code appendSeconds}, plain and with
 * idempotent-producer headers; the baseline is one gRPC client appending one 256-byte block per
 * Append to one feed for as long. SSE catch-up: a stream of {@code streamMessages} messages (one
 * block each, written into the stream's feed over gRPC, as a replica's pushes would arrive) is read
 * from {@code offset=-1} with {@code live=sse} (counted from the bytes of its base64 data events)
 * until the control event that says it is up to date;
 * the baseline is a gRPC Watch of the same feed from 0 until caught up.
 */
final class StreamsBench {
  private static final String SPACE = "streams";
  private static final byte[] MESSAGE = new byte[AppendWorkload.DATA_BYTES];

  private final BenchOptions options;
  private final ResultTable table;
  private final int messages;

  StreamsBench(BenchOptions options, ResultTable table, int messages) {
    this.options = options;
    this.table = table;
    this.messages = messages;
    java.util.Arrays.fill(MESSAGE, (byte) 'm');
  }

  void run() throws Exception {
    BenchServer server = options.server().reopen(options.dir().resolve("streams-authority.db"));
    ManagedChannel channel = server.channel();
    HttpClient http = HttpClient.newHttpClient();
    String base = "http://127.0.0.1:" + server.httpPort() + "/v1/stream/";
    try {
      FeedSyncGrpc.FeedSyncBlockingStub grpc = FeedSyncGrpc.newBlockingStub(channel);
      grpcAppends(grpc, options.appendWarmupSeconds());
      double grpcBefore = grpcAppends(grpc, options.appendSeconds());
      double[] rates = new double[2];
      for (boolean producer : new boolean[] {false, true}) {
        String name = producer ? "bench-producer" : "bench-plain";
        check(http.send(put(base + name), HttpResponse.BodyHandlers.discarding()), 201);
        long[] seq = {0};
        httpAppends(http, base + name, producer, seq, options.appendWarmupSeconds());
        rates[producer ? 1 : 0] = httpAppends(http, base + name, producer, seq, options.appendSeconds());
      }
      // The disk's commit time dominates one-block appends and drifts with the machine's load: the
      // baseline is the mean of a gRPC run before and one after the HTTP runs.
      double grpcAfter = grpcAppends(grpc, options.appendSeconds());
      double grpcRate = (grpcBefore + grpcAfter) / 2;
      Progress.say("streams: gRPC one block per Append %.0f and %.0f blocks/s, HTTP %.0f, with a producer %.0f"
          + " messages/s", grpcBefore, grpcAfter, rates[0], rates[1]);
      table.add("streams.append.http", rates[0], "msgs/s", grpcRate, ResultTable.Target.NONE);
      table.add("streams.append.http_producer", rates[1], "msgs/s", grpcRate, ResultTable.Target.NONE);

      String name = "bench-catchup";
      check(http.send(put(base + name), HttpResponse.BodyHandlers.discarding()), 201);
      FeedId feed = StreamName.of(name).feedId(0);
      fill(grpc, feed);
      double grpcCatchUp = watchCatchUp(FeedSyncGrpc.newBlockingStub(channel), feed);
      double sseCatchUp = sseCatchUp(http, base + name);
      Progress.say("streams: SSE catch-up of %d messages %.0f/s, gRPC Watch %.0f/s", messages, sseCatchUp,
          grpcCatchUp);
      table.add("streams.sse_catchup.rate", sseCatchUp, "msgs/s", grpcCatchUp, ResultTable.Target.NONE);
      table.note("streams.*: Durable Streams over HTTP/1.1 (java.net.http, one connection); baseline: gRPC on the"
          + " same server in the same run (append: one block per Append; catch-up: a Watch of the stream's feed)");
    } finally {
      BenchServer.shutdown(channel);
    }
  }

  private static HttpRequest put(String url) {
    return HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/octet-stream")
        .PUT(HttpRequest.BodyPublishers.noBody()).build();
  }

  private static void check(HttpResponse<?> response, int status) {
    if (response.statusCode() != status) {
      throw new IllegalStateException("expected " + status + ", the server answered " + response.statusCode());
    }
  }

  private double httpAppends(HttpClient http, String url, boolean producer, long[] seq, double seconds)
      throws Exception {
    long end = System.nanoTime() + (long) (seconds * 1e9);
    long start = System.nanoTime();
    long count = 0;
    while (System.nanoTime() < end) {
      HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
          .header("Content-Type", "application/octet-stream").POST(HttpRequest.BodyPublishers.ofByteArray(MESSAGE));
      if (producer) {
        request.header("Producer-Id", "bench").header("Producer-Epoch", "0")
            .header("Producer-Seq", Long.toString(seq[0]++));
      }
      check(http.send(request.build(), HttpResponse.BodyHandlers.discarding()), producer ? 200 : 204);
      count++;
    }
    return count / ((System.nanoTime() - start) / 1e9);
  }

  private double grpcAppends(FeedSyncGrpc.FeedSyncBlockingStub grpc, double seconds) {
    String feed = FeedId.generate().value();
    ByteString data = ByteString.copyFrom(MESSAGE);
    long end = System.nanoTime() + (long) (seconds * 1e9);
    long start = System.nanoTime();
    long count = 0;
    while (System.nanoTime() < end) {
      grpc.append(AppendRequest.newBuilder().setSpaceId("streams-baseline").addBlocks(Block.newBuilder()
          .setFeedId(feed).setActorId("bench").setSequence(count).setTimestamp(System.currentTimeMillis())
          .setData(data)).build());
      count++;
    }
    return count / ((System.nanoTime() - start) / 1e9);
  }

  /** Writes the messages into the stream's feed, 1,000 blocks per Append. */
  private void fill(FeedSyncGrpc.FeedSyncBlockingStub grpc, FeedId feed) {
    ByteString data = ByteString.copyFrom(MESSAGE);
    for (int done = 0; done < messages; ) {
      AppendRequest.Builder request = AppendRequest.newBuilder().setSpaceId(SPACE);
      for (int i = 0; i < 1000 && done < messages; i++, done++) {
        request.addBlocks(Block.newBuilder().setFeedId(feed.value()).setActorId("bench").setSequence(done)
            .setTimestamp(System.currentTimeMillis()).setData(data));
      }
      grpc.append(request.build());
    }
  }

  private double watchCatchUp(FeedSyncGrpc.FeedSyncBlockingStub grpc, FeedId feed) throws Exception {
    Context.CancellableContext context = Context.current().withCancellation();
    try {
      return context.call(() -> {
        long start = System.nanoTime();
        long blocks = 0;
        Iterator<WatchEvent> events = grpc.watch(WatchRequest.newBuilder().setSpaceId(SPACE)
            .addFeedIds(feed.value()).setCursor(0).build());
        while (events.hasNext()) {
          WatchEvent event = events.next();
          blocks += event.getBlocks().getBlocksCount();
          if (event.hasCaughtUp() && blocks >= messages) {
            break;
          }
        }
        return blocks / ((System.nanoTime() - start) / 1e9);
      });
    } finally {
      context.cancel(null); // ends the Watch
    }
  }

  private double sseCatchUp(HttpClient http, String url) throws Exception {
    long start = System.nanoTime();
    HttpResponse<InputStream> response = http.send(HttpRequest.newBuilder(URI.create(url + "?offset=-1&live=sse"))
        .GET().build(), HttpResponse.BodyHandlers.ofInputStream());
    check(response, 200);
    long data = 0;
    boolean inData = false;
    try (BufferedReader reader = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        if (line.startsWith("event: ")) {
          inData = line.equals("event: data");
        } else if (inData && line.startsWith("data:")) {
          // A data event holds a batch of messages in base64 (the stream is binary): count its bytes.
          data += Base64.getDecoder().decode(line.substring(5)).length / MESSAGE.length;
        } else if (data >= messages && line.startsWith("data:") && line.contains("\"upToDate\":true")) {
          break;
        }
      }
    }
    if (data < messages) {
      throw new IllegalStateException("the event stream ended after " + data + " of " + messages + " messages");
    }
    return data / ((System.nanoTime() - start) / 1e9);
  }
}
