package dev.feedstore.bench;

import com.google.protobuf.ByteString;
import dev.feedstore.core.FeedId;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import io.grpc.ManagedChannel;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Base64;

/**
 * Appends over the HTTP API ({@code POST /v1/spaces/{space}/feeds/{feed}/blocks} with a JSON body),
 * one client sending one request after another with {@code N} blocks of one feed each, beside the
 * same blocks appended over gRPC in the same run: blocks per second and the server's CPU per block.
 * Each case appends to a feed of its own, warmed up first.
 */
final class HttpAppendBench {
  private static final String SPACE = "http-append";

  private final BenchOptions options;
  private final ResultTable table;
  private final String data;
  private final ByteString bytes;

  HttpAppendBench(BenchOptions options, ResultTable table) {
    this.options = options;
    this.table = table;
    byte[] block = new byte[AppendWorkload.DATA_BYTES];
    java.util.Arrays.fill(block, (byte) 'h');
    this.data = Base64.getEncoder().encodeToString(block);
    this.bytes = ByteString.copyFrom(block);
  }

  void run() throws Exception {
    BenchServer server = options.server().reopen(options.dir().resolve("http-append-authority.db"));
    ManagedChannel channel = server.channel();
    HttpClient http = HttpClient.newHttpClient();
    try {
      FeedSyncGrpc.FeedSyncBlockingStub grpc = FeedSyncGrpc.newBlockingStub(channel);
      for (int batch : options.appendBatches()) {
        Writer overGrpc = new Writer(batch, blocks -> grpc.append(blocks));
        overGrpc.measure(server, options.appendWarmupSeconds());
        double[] grpcRate = overGrpc.measure(server, options.appendSeconds());
        String url = "http://127.0.0.1:" + server.httpPort() + "/v1/spaces/" + SPACE + "/feeds/";
        Writer overHttp = new Writer(batch, blocks -> post(http, url, blocks));
        overHttp.measure(server, options.appendWarmupSeconds());
        double[] httpRate = overHttp.measure(server, options.appendSeconds());
        table.add("http.append.batch" + batch, httpRate[0], "blocks/s", grpcRate[0], ResultTable.Target.NONE);
        table.add("http.append.batch" + batch + ".server_cpu_per_block", httpRate[1], "us", grpcRate[1],
            ResultTable.Target.NONE);
        Progress.say("http append batch %d: %.0f blocks/s (server CPU %.1f us/block), gRPC %.0f blocks/s (%.1f us)",
            batch, httpRate[0], httpRate[1], grpcRate[0], grpcRate[1]);
      }
      table.note("http.append.*: one client, one request at a time, N blocks of 256 bytes of one feed per request,"
          + " as JSON over HTTP/1.1 (java.net.http, one connection); baseline: the same blocks appended over gRPC in"
          + " the same run; " + options.appendWarmupSeconds() + " s warm-up, " + options.appendSeconds()
          + " s measured per case");
    } finally {
      BenchServer.shutdown(channel);
    }
  }

  private void post(HttpClient http, String url, AppendRequest blocks) throws Exception {
    StringBuilder json = new StringBuilder("{\"blocks\":[");
    for (int i = 0; i < blocks.getBlocksCount(); i++) {
      Block block = blocks.getBlocks(i);
      json.append(i == 0 ? "{" : ",{").append("\"actor_id\":\"").append(block.getActorId())
          .append("\",\"sequence\":").append(block.getSequence());
      if (block.hasPrevActorId()) {
        json.append(",\"prev_actor_id\":\"").append(block.getPrevActorId()).append("\",\"prev_sequence\":")
            .append(block.getPrevSequence());
      }
      json.append(",\"timestamp\":").append(block.getTimestamp()).append(",\"data\":\"").append(data).append("\"}");
    }
    HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(url + block(blocks).getFeedId()
        + "/blocks")).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json.append("]}").toString())).build(),
        HttpResponse.BodyHandlers.ofString());
    if (answer.statusCode() != 200) {
      throw new IllegalStateException("the append was answered " + answer.statusCode() + ": " + answer.body());
    }
  }

  private static Block block(AppendRequest request) {
    return request.getBlocks(0);
  }

  @FunctionalInterface
  private interface Send {
    void send(AppendRequest blocks) throws Exception;
  }

  /** One feed's blocks, {@code batch} per request, each after the one before. */
  private final class Writer {
    private final int batch;
    private final Send send;
    private final String feed = FeedId.generate().value();
    private long sequence;

    Writer(int batch, Send send) {
      this.batch = batch;
      this.send = send;
    }

    /** Appends for {@code seconds}: blocks per second and the server's CPU microseconds per block. */
    double[] measure(BenchServer server, double seconds) {
      long cpu = server.cpuNanos();
      long before = sequence;
      double rate = AppendBench.runFor(seconds, () -> send.send(next())) * batch;
      return new double[] {rate, (server.cpuNanos() - cpu) / 1000.0 / (sequence - before)};
    }

    private AppendRequest next() {
      AppendRequest.Builder request = AppendRequest.newBuilder().setSpaceId(SPACE);
      for (int i = 0; i < batch; i++) {
        Block.Builder block = Block.newBuilder().setFeedId(feed).setActorId("writer").setSequence(sequence)
            .setTimestamp(System.currentTimeMillis()).setData(bytes);
        if (sequence > 0) {
          block.setPrevActorId("writer").setPrevSequence(sequence - 1);
        }
        request.addBlocks(block);
        sequence++;
      }
      return request.build();
    }
  }
}
