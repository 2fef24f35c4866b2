package dev.feedstore.bench;

import com.google.protobuf.ByteString;
import dev.feedstore.core.FeedId;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.Block;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The blocks of the append benchmark: 256-byte blocks of {@value #FEEDS} feeds of one space, each
 * block linked to the previous one of its feed. Batches come in one of two shapes. Not thread-safe.
 */
final class AppendWorkload {
  static final int FEEDS = 100;
  static final int DATA_BYTES = 256;
  static final String SPACE = "bench";
  static final String ACTOR = "bench-writer";

  /** How the blocks of one request are chosen. */
  enum Shape {
    /** Every request holds blocks of one feed (a client pushing its own writes); feeds take turns. */
    ONE_FEED("one-feed"),
    /** Every request interleaves the feeds, block by block (100 writers of one space). */
    INTERLEAVED("interleaved");

    final String label;

    Shape(String label) {
      this.label = label;
    }
  }

  /** One block as a row: its feed's index in {@link #feeds()}, sequence, predecessor, timestamp. */
  record Row(int feed, long sequence, long timestamp) {}

  private final Shape shape;
  private final int batch;
  private final List<FeedId> feeds = new ArrayList<>();
  private final List<String> feedIds = new ArrayList<>();
  private final long[] nextSequence = new long[FEEDS];
  private final ByteString data;
  private final byte[] dataBytes;
  private long requests;
  private long blocks;

  AppendWorkload(Shape shape, int batch, long seed) {
    this.shape = shape;
    this.batch = batch;
    Random random = new Random(seed);
    Clock clock = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    for (int i = 0; i < FEEDS; i++) {
      FeedId id = FeedId.generate(Clock.offset(clock, java.time.Duration.ofMillis(i)), random);
      feeds.add(id);
      feedIds.add(id.value());
    }
    dataBytes = new byte[DATA_BYTES];
    random.nextBytes(dataBytes);
    data = ByteString.copyFrom(dataBytes);
  }

  List<FeedId> feeds() {
    return feeds;
  }

  byte[] data() {
    return dataBytes;
  }

  /** The rows of the next batch. */
  List<Row> nextRows() {
    List<Row> rows = new ArrayList<>(batch);
    long now = System.currentTimeMillis();
    int requestFeed = (int) (requests % FEEDS);
    for (int i = 0; i < batch; i++) {
      int feed = shape == Shape.ONE_FEED ? requestFeed : (int) (blocks % FEEDS);
      rows.add(new Row(feed, nextSequence[feed]++, now));
      blocks++;
    }
    requests++;
    return rows;
  }

  /** The next batch as an Append request. */
  AppendRequest nextRequest() {
    AppendRequest.Builder request = AppendRequest.newBuilder().setSpaceId(SPACE).setRequestId("r" + requests);
    for (Row row : nextRows()) {
      request.addBlocks(wire(row));
    }
    return request.build();
  }

  Block wire(Row row) {
    Block.Builder block = Block.newBuilder()
        .setFeedId(feedIds.get(row.feed()))
        .setActorId(ACTOR)
        .setSequence(row.sequence())
        .setTimestamp(row.timestamp())
        .setData(data);
    if (row.sequence() > 0) {
      block.setPrevActorId(ACTOR).setPrevSequence(row.sequence() - 1);
    }
    return block.build();
  }
}
