package dev.feedstore.bench;

import com.google.protobuf.ByteString;
import dev.feedstore.core.FeedId;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ClientInterceptors;
import io.grpc.ClientStreamTracer;
import io.grpc.Codec;
import io.grpc.DecompressorRegistry;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;

/**
 * What gzip costs and saves on catch-up pages: a space of {@code blocks} blocks of 256 bytes is read
 * whole, in pages of 1,000, over the HTTP API ({@code GET /v1/spaces/{space}/blocks}) and over gRPC
 * (Query), by a client that takes gzip and by one that does not, for two kinds of data: JSON
 * documents of repeated field names and words (as applications store), and random bytes (which
 * gzip cannot shrink: its cost with nothing to gain). Per block: bytes on the wire (the bodies or
 * messages as sent, headers aside), the server's CPU and the client's (inflating included), and
 * the rate of the read. Each case runs twice, alternating with its pair, and the second run counts.
 *
 * <p>And on event streams ({@code --sse-gzip-level} 6 in the benchmark's server): {@value
 * #SSE_STREAMS} Server-Sent Events streams follow the space while {@value #SSE_BLOCKS} more blocks
 * of the same kind are appended, read by clients that take gzip (inflating each event as it
 * arrives) and by clients that do not; per event (a block delivered to one stream): the bytes of
 * the streams after their opening, and the CPU of the server and of the clients.
 */
final class CompressionBench {
  private static final int PAGE = 1000;
  private static final int SSE_STREAMS = 20;
  private static final int SSE_BLOCKS = 2_000;
  /** The space the event streams follow, apart from the one the pages read. */
  private static final String SSE_SPACE = "compression-sse";
  private static final String[] WORDS = {"order", "shipped", "paid", "pending", "customer", "item", "warehouse",
      "berlin", "lisbon", "quantity", "price", "discount", "note", "express", "standard", "returned"};
  private final BenchOptions options;
  private final ResultTable table;
  private final int blocks;
  /** The highest position of {@link #SSE_SPACE}: the blocks appended to it. */
  private long appended;

  CompressionBench(BenchOptions options, ResultTable table, int blocks) {
    this.options = options;
    this.table = table;
    this.blocks = blocks;
  }

  /** What reading the space once cost. */
  private record Read(long wireBytes, long serverCpu, long clientCpu, double seconds) {}

  void run() throws Exception {
    for (String data : new String[] {"json", "random"}) {
      BenchServer server = options.server().reopen(options.dir().resolve("compression-" + data + ".db"));
      Random random = new Random(11);
      populate(server, AppendWorkload.SPACE, data.equals("json"), blocks, random);
      appended = 0;
      populate(server, SSE_SPACE, data.equals("json"), 1, random);
      HttpClient http = HttpClient.newHttpClient();
      ManagedChannel gzip = NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext()
          .maxInboundMessageSize(64 << 20).build();
      ManagedChannel plain = NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext()
          .maxInboundMessageSize(64 << 20)
          .decompressorRegistry(DecompressorRegistry.emptyInstance().with(Codec.Identity.NONE, false)).build();
      try {
        Read[] httpReads = new Read[2];
        Read[] grpcReads = new Read[2];
        Read[] sseReads = new Read[2];
        for (int round = 0; round < 2; round++) {
          for (int mode = 0; mode < 2; mode++) {
            boolean compressed = mode == 1;
            httpReads[mode] = measure(server, () -> readHttp(http, server, compressed));
            grpcReads[mode] = measure(server, () -> readGrpc(compressed ? gzip : plain));
            sseReads[mode] = followSse(http, server, compressed, data.equals("json"), random);
          }
        }
        report("compression." + data + ".http", httpReads, blocks, "block");
        report("compression." + data + ".grpc", grpcReads, blocks, "block");
        report("compression." + data + ".sse", sseReads, (long) SSE_BLOCKS * SSE_STREAMS, "event");
      } finally {
        BenchServer.shutdown(gzip);
        BenchServer.shutdown(plain);
      }
    }
    table.note("compression.*: a space of " + blocks + " blocks of 256 bytes (JSON documents, or random bytes) read"
        + " whole in pages of " + PAGE + " over HTTP (GET .../blocks, JSON with data in base64) and gRPC (Query), by a"
        + " client that takes gzip and one that does not (compress-min-bytes at its default); per block: bytes of"
        + " the bodies or messages on the wire, CPU of the server's process and of the client's JVM (inflating"
        + " included); the second of two alternating runs counts. compression.*.sse: " + SSE_STREAMS + " event"
        + " streams (GET .../events, sse-gzip-level 6) follow the space while " + SSE_BLOCKS + " more blocks are"
        + " appended, read by clients that take gzip and clients that do not; per event (a block delivered to one"
        + " stream): the streams' bytes after their opening, CPU of the server and of the clients (appending"
        + " included)");
  }

  private interface Reading {
    long read() throws Exception;
  }

  private Read measure(BenchServer server, Reading reading) throws Exception {
    long serverCpu = server.cpuNanos();
    long clientCpu = Heap.processCpuNanos();
    long start = System.nanoTime();
    long wire = reading.read();
    return new Read(wire, server.cpuNanos() - serverCpu, Heap.processCpuNanos() - clientCpu,
        (System.nanoTime() - start) / 1e9);
  }

  /**
   * Adds the rows of {@code reads} (plain, then gzip), each figure per {@code unit}, of which there
   * were {@code count}.
   */
  private void report(String prefix, Read[] reads, long count, String unit) {
    String[] modes = {"plain", "gzip"};
    for (int mode = 0; mode < 2; mode++) {
      Read read = reads[mode];
      String name = prefix + "." + modes[mode];
      table.add(name + ".bytes_per_" + unit, (double) read.wireBytes() / count, "bytes");
      table.add(name + ".server_cpu_per_" + unit, read.serverCpu() / 1000.0 / count, "us");
      table.add(name + ".client_cpu_per_" + unit, read.clientCpu() / 1000.0 / count, "us");
      table.add(name + ".rate", count / read.seconds(), unit + "s/s");
    }
    Progress.say("%s: %.0f bytes/%s plain, %.0f gzipped; server CPU %.2f us/%s plain, %.2f gzipped", prefix,
        (double) reads[0].wireBytes() / count, unit, (double) reads[1].wireBytes() / count,
        reads[0].serverCpu() / 1000.0 / count, unit, reads[1].serverCpu() / 1000.0 / count);
  }

  /**
   * Opens {@value #SSE_STREAMS} event streams at the space's tail, waits until each caught up,
   * appends {@value #SSE_BLOCKS} blocks and waits until every stream received the last; what that
   * cost after the streams' openings.
   */
  private Read followSse(HttpClient http, BenchServer server, boolean gzip, boolean json, Random random)
      throws Exception {
    long target = appended + SSE_BLOCKS;
    CountDownLatch caughtUp = new CountDownLatch(SSE_STREAMS);
    CountDownLatch received = new CountDownLatch(SSE_STREAMS);
    List<SseFollower> followers = new ArrayList<>();
    try {
      for (int i = 0; i < SSE_STREAMS; i++) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.httpPort()
            + "/v1/spaces/" + SSE_SPACE + "/events?after=" + appended));
        if (gzip) {
          request.header("Accept-Encoding", "gzip");
        }
        followers.add(new SseFollower(http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream()), gzip,
            target, caughtUp, received));
      }
      await(caughtUp, "the event streams to catch up");
      long serverCpu = server.cpuNanos();
      long clientCpu = Heap.processCpuNanos();
      long start = System.nanoTime();
      populate(server, SSE_SPACE, json, SSE_BLOCKS, random);
      await(received, "every event stream to receive the last block");
      long wire = followers.stream().mapToLong(SseFollower::bytesAfterOpening).sum();
      return new Read(wire, server.cpuNanos() - serverCpu, Heap.processCpuNanos() - clientCpu,
          (System.nanoTime() - start) / 1e9);
    } finally {
      followers.forEach(SseFollower::close);
    }
  }

  private static void await(CountDownLatch latch, String what) throws InterruptedException {
    if (!latch.await(120, TimeUnit.SECONDS)) {
      throw new IllegalStateException("waited 120 s for " + what);
    }
  }

  /** Reads the space over HTTP; the bytes of the bodies as they came. */
  private long readHttp(HttpClient http, BenchServer server, boolean gzip) throws IOException, InterruptedException {
    long wire = 0;
    long after = 0;
    long read = 0;
    while (true) {
      HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.httpPort()
          + "/v1/spaces/" + AppendWorkload.SPACE + "/blocks?limit=" + PAGE + "&after=" + after));
      if (gzip) {
        request.header("Accept-Encoding", "gzip");
      }
      HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      if (response.statusCode() != 200) {
        throw new IllegalStateException("a page was answered " + response.statusCode());
      }
      byte[] body = response.body();
      wire += body.length;
      boolean gzipped = response.headers().firstValue("Content-Encoding").filter("gzip"::equals).isPresent();
      if (gzipped != gzip) {
        throw new IllegalStateException("a page came " + (gzipped ? "gzipped" : "plain") + " to a client that "
            + (gzip ? "takes" : "does not take") + " gzip");
      }
      String json = new String(gzipped ? new GZIPInputStream(new ByteArrayInputStream(body)).readAllBytes() : body,
          StandardCharsets.UTF_8);
      read += count(json, "\"position\":");
      after = number(json, "\"next\":");
      if (json.contains("\"has_more\":false")) {
        break;
      }
    }
    check(read);
    return wire;
  }

  /** Reads the space over gRPC; the bytes of the response messages as they came. */
  private long readGrpc(Channel channel) {
    AtomicLong wire = new AtomicLong();
    Channel counted = ClientInterceptors.intercept(channel, new ClientInterceptor() {
      @Override
      public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions callOptions,
          Channel next) {
        return next.newCall(method, callOptions.withStreamTracerFactory(new ClientStreamTracer.Factory() {
          @Override
          public ClientStreamTracer newClientStreamTracer(ClientStreamTracer.StreamInfo info, Metadata headers) {
            return new ClientStreamTracer() {
              @Override
              public void inboundWireSize(long bytes) {
                wire.addAndGet(bytes);
              }
            };
          }
        }));
      }
    });
    FeedSyncGrpc.FeedSyncBlockingStub stub = FeedSyncGrpc.newBlockingStub(counted);
    long cursor = 0;
    long read = 0;
    while (true) {
      QueryResponse page = stub.query(QueryRequest.newBuilder().setSpaceId(AppendWorkload.SPACE).setCursor(cursor)
          .setLimit(PAGE).build());
      read += page.getBlocksCount();
      if (page.getBlocksCount() > 0) {
        cursor = page.getBlocks(page.getBlocksCount() - 1).getPosition();
      }
      if (!page.getHasMore()) {
        break;
      }
    }
    check(read);
    return wire.get();
  }

  private void check(long read) {
    if (read != blocks) {
      throw new IllegalStateException("read " + read + " blocks of " + blocks);
    }
  }

  /** Appends {@code count} blocks of one new feed to {@code space}, in Appends of {@value #PAGE}. */
  private void populate(BenchServer server, String space, boolean json, int count, Random random) {
    ManagedChannel channel = server.channel();
    try {
      FeedSyncGrpc.FeedSyncBlockingStub stub = FeedSyncGrpc.newBlockingStub(channel);
      FeedId feed = FeedId.generate();
      AppendRequest.Builder request = AppendRequest.newBuilder().setSpaceId(space);
      for (int i = 0; i < count; i++) {
        request.addBlocks(Block.newBuilder().setFeedId(feed.value()).setActorId(AppendWorkload.ACTOR).setSequence(i)
            .setTimestamp(1_767_225_600_000L + i).setData(json ? document(random, i) : bytes(random)));
        if (request.getBlocksCount() == PAGE || i == count - 1) {
          stub.append(request.build());
          request.clearBlocks();
        }
      }
      if (space.equals(SSE_SPACE)) {
        appended += count;
      }
    } finally {
      BenchServer.shutdown(channel);
    }
  }

  /** A JSON document of 256 bytes: field names and words that repeat, numbers that do not. */
  private static ByteString document(Random random, int i) {
    StringBuilder text = new StringBuilder("{\"id\":").append(i).append(",\"customer\":").append(random.nextInt(100_000))
        .append(",\"status\":\"").append(WORDS[random.nextInt(WORDS.length)]).append("\",\"total\":")
        .append(random.nextInt(100_000) / 100.0).append(",\"note\":\"");
    while (text.length() < AppendWorkload.DATA_BYTES - 2) {
      text.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
    }
    text.setLength(AppendWorkload.DATA_BYTES - 2);
    return ByteString.copyFromUtf8(text.append("\"}").toString());
  }

  private static ByteString bytes(Random random) {
    byte[] data = new byte[AppendWorkload.DATA_BYTES];
    random.nextBytes(data);
    return ByteString.copyFrom(data);
  }

  private static long count(String text, String needle) {
    long count = 0;
    for (int at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length())) {
      count++;
    }
    return count;
  }

  private static long number(String text, String name) {
    int at = text.lastIndexOf(name) + name.length();
    int end = at;
    while (end < text.length() && Character.isDigit(text.charAt(end))) {
      end++;
    }
    return Long.parseLong(text.substring(at, end));
  }
}
