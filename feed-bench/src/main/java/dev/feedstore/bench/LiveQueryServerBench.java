package dev.feedstore.bench;

import dev.feedstore.core.FeedId;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.WatchRequest;
import io.grpc.ManagedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.HdrHistogram.Recorder;

/**
 * Live queries at the edge, beside Watch on the same workload in the same run: the authority holds
 * {@code documents} task documents keyed by {@code /id} in one namespace ({@link QueryDocuments});
 * {@code subscribers} gRPC LiveQuery subscribers follow one query that matches a fifth of them, and
 * {@code queries} distinct queries one subscriber each, while one client appends {@code
 * fanoutRate} blocks a second in batches of {@code fanoutBatch}, each a new version of the next
 * document in turn. Measured as the fan-out parts measure ({@link StreamMeasure#fanout}): the delay
 * from when an append was due to when each subscriber holds the change, the server's CPU per
 * delivered change beside its CPU per block delivered by the same number of Watch streams of the
 * namespace on the same appends just before, the server's heap per open subscriber, and the changes
 * a subscriber never received (counted per document: {@link QuerySubscriber#missing}).
 */
final class LiveQueryServerBench {
  /** The prefix of the part's rows. */
  static final String PREFIX = "livequery_server";
  private static final String SPACE = "edge";
  private static final String NAMESPACE = "tasks";
  private static final int CHANNELS = 4;
  /** Documents appended per request while the space is filled. */
  private static final int FILL_BATCH = 1_000;

  /** The sizes of a run. */
  record Sizes(int subscribers, int queries, int documents) {}

  private final BenchOptions options;
  private final ResultTable table;
  private final Sizes sizes;

  LiveQueryServerBench(BenchOptions options, ResultTable table, Sizes sizes) {
    this.options = options;
    this.table = table;
    this.sizes = sizes;
  }

  void run() throws Exception {
    QueryDocuments documents = new QueryDocuments(sizes.documents(), sizes.queries());
    BenchServer server = options.server().reopen(options.dir().resolve("livequery-server-authority.db"));
    List<ManagedChannel> channels = new ArrayList<>();
    for (int i = 0; i < CHANNELS; i++) {
      channels.add(server.directChannel());
    }
    ManagedChannel appends = server.channel();
    try {
      FeedSyncGrpc.FeedSyncBlockingStub blocking = FeedSyncGrpc.newBlockingStub(appends);
      FanoutAppender appender = new FanoutAppender(SPACE, FeedId.generate(), Optional.of(NAMESPACE), documents,
          blocking);
      for (int written = 0; written < sizes.documents(); written += FILL_BATCH) {
        appender.append(Math.min(FILL_BATCH, sizes.documents() - written), 0);
      }
      watchBaseline(server, appender, channels, blocking);
      liveQueries(server, appender, channels, documents);
    } finally {
      channels.forEach(BenchServer::shutdown);
      BenchServer.shutdown(appends);
    }
  }

  /** As many Watch streams of the namespace as there are subscribers, from the space's highest position. */
  private void watchBaseline(BenchServer server, FanoutAppender appender, List<ManagedChannel> channels,
      FeedSyncGrpc.FeedSyncBlockingStub blocking) throws Exception {
    long highest = blocking.query(QueryRequest.newBuilder().setSpaceId(SPACE).build()).getMaxPosition();
    WatchRequest request = WatchRequest.newBuilder().setSpaceId(SPACE).setNamespace(NAMESPACE).setCursor(highest)
        .build();
    Recorder recorder = StreamMeasure.delays();
    int streams = sizes.subscribers() + sizes.queries();
    List<WatchStreams.Watcher> watchers = WatchStreams.open(channels, streams, request, recorder, QueryDocuments.DUE);
    try {
      StreamMeasure.fanout(options, table, server, appender, watchers.stream()
          .map(watcher -> StreamMeasure.everyBlock(watcher.blocks::get)).toList(), recorder,
          new StreamMeasure.Case(PREFIX + ".watch", null, ResultTable.Target.NONE, "blocks", "(block, stream)",
              streams + " Watch streams of the namespace (over " + CHANNELS + " connections; the baseline of "
                  + PREFIX + ".*, on its documents and appends)"));
    } finally {
      RawStream.close(watchers);
    }
  }

  private void liveQueries(BenchServer server, FanoutAppender appender, List<ManagedChannel> channels,
      QueryDocuments documents) throws Exception {
    Recorder recorder = StreamMeasure.delays();
    // Warm the server's live-query path up; a query without subscribers is dropped, so none is held after.
    RawStream.close(QuerySubscriber.open(channels, SPACE, NAMESPACE, Math.min(20, sizes.subscribers()),
        Math.min(5, sizes.queries()), documents, recorder));
    long before = server.usedHeapAfterGc();
    List<QuerySubscriber> subscribers = QuerySubscriber.open(channels, SPACE, NAMESPACE, sizes.subscribers(),
        sizes.queries(), documents, recorder);
    try {
      long after = server.usedHeapAfterGc();
      int count = subscribers.size();
      double perSubscriber = (after - before) / (double) count / 1024.0;
      table.add(PREFIX + ".heap_per_subscriber", perSubscriber, "KiB");
      table.note(PREFIX + ".heap_per_subscriber: the server's heap after GC with the " + count + " subscribers ready,"
          + " less before, per subscriber (the shared states of the " + (1 + sizes.queries()) + " queries included)");
      Progress.say("%s: %d subscribers ready, server heap %.1f -> %.1f MiB, %.1f KiB per subscriber", PREFIX, count,
          Heap.mib(before), Heap.mib(after), perSubscriber);
      StreamMeasure.fanout(options, table, server, appender, List.copyOf(subscribers), recorder,
          new StreamMeasure.Case(PREFIX, PREFIX + ".watch", ResultTable.Target.NONE, "changes",
              "(change, subscriber)", sizes.subscribers() + " gRPC LiveQuery subscribers of one query matching a"
                  + " fifth of the blocks and " + sizes.queries() + " distinct queries of one subscriber each (over "
                  + CHANNELS + " connections; " + sizes.documents() + " documents keyed by /id in one namespace, a"
                  + " delivery is a row that entered or was updated, as a subscriber receives it)"));
      RawStream.checkNoneFailed(subscribers);
    } finally {
      RawStream.close(subscribers);
    }
  }
}
