package dev.feedstore.bench;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.LiveQueryRequest;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.HdrHistogram.Recorder;

/**
 * One gRPC LiveQuery subscriber of {@link LiveQueryServerBench}, its events left as bytes ({@link
 * RawStream}): live from its {@code ready}, it reads for every row that entered or was updated the
 * due time and the sequence in the row's content ({@link QueryDocuments}), records the delay, and
 * keeps the newest version of each document it follows. What it is owed ({@link #missing}) is
 * exact: a version counts as delivered when the subscriber holds it or a newer one of its document,
 * since a batch carries the net change of a range of commits. A reset or an end fails it.
 *
 * <p>Thread-safe: gRPC serializes its callbacks; the versions held are atomic for the measuring thread.
 */
final class QuerySubscriber extends RawStream implements StreamMeasure.Owed {
  private static final MethodDescriptor<LiveQueryRequest, byte[]> RAW_LIVE_QUERY =
      RawStream.method(FeedSyncGrpc.getLiveQueryMethod(), LiveQueryRequest.getDefaultInstance());

  private final Recorder recorder;
  private final QueryDocuments documents;
  /** The documents followed: those whose id modulo {@code modulus} is {@code residue}. */
  private final int modulus;
  private final int residue;
  /** Per document followed (by id / modulus): 1 + the sequence of the newest version received, 0 for none. */
  private final AtomicIntegerArray newest;
  private final long[] read = new long[2];

  /**
   * A subscriber of the query that matches the documents whose id modulo {@code modulus} is {@code
   * residue}.
   */
  private QuerySubscriber(Recorder recorder, QueryDocuments documents, int modulus, int residue) {
    this.recorder = recorder;
    this.documents = documents;
    this.modulus = modulus;
    this.residue = residue;
    this.newest = new AtomicIntegerArray((documents.documents() - residue + modulus - 1) / modulus);
  }

  /**
   * Opens {@code shared} subscribers of the shared query and one of each of {@code distinct} distinct
   * queries, over namespace {@code namespace} of {@code space}, taking turns over {@code channels},
   * and waits until each is ready.
   *
   * @throws IllegalStateException if one fails or is not ready within two minutes
   */
  static List<QuerySubscriber> open(List<ManagedChannel> channels, String space, String namespace, int shared,
      int distinct, QueryDocuments documents, Recorder recorder) throws InterruptedException {
    return RawStream.open(channels, RAW_LIVE_QUERY, shared + distinct,
        i -> LiveQueryRequest.newBuilder().setRequestId("lq" + i).setSpaceId(space)
            .setText(i < shared ? QueryDocuments.shared(namespace) : QueryDocuments.distinct(namespace, i - shared))
            .build(),
        i -> i < shared ? new QuerySubscriber(recorder, documents, QueryDocuments.GROUPS, 0)
            : new QuerySubscriber(recorder, documents, documents.queries(), i - shared), 120);
  }

  @Override
  public long missing(long from, long to) {
    long missing = 0;
    long last = to - 1;
    for (int slot = 0; slot < newest.length(); slot++) {
      long id = (long) slot * modulus + residue;
      long version = last - Math.floorMod(last - id, (long) documents.documents()); // its newest below to
      if (version >= from && newest.get(slot) < version + 1) {
        missing++;
      }
    }
    return missing;
  }

  @Override
  void read(CodedInputStream in, int tag, long now) throws IOException {
    switch (WireFormat.getTagFieldNumber(tag)) {
      case 5 -> throw new IllegalStateException("the live query was reset, which nothing here should cause");
      case 7 -> { // LiveQueryEvent.ready
        in.skipField(tag);
        live.countDown();
      }
      case 8 -> readChanges(in, now); // LiveQueryEvent.changes
      default -> in.skipField(tag);
    }
  }

  /** LiveChanges: the rows that entered (1) and the current rows of updates (2); none leave here. */
  private void readChanges(CodedInputStream in, long now) throws IOException {
    int changes = in.pushLimit(in.readRawVarint32());
    while (!in.isAtEnd()) {
      int tag = in.readTag();
      switch (WireFormat.getTagFieldNumber(tag)) {
        case 1 -> readRow(in, now);
        case 2 -> { // LiveRowUpdate: previous (1), current (2)
          int update = in.pushLimit(in.readRawVarint32());
          while (!in.isAtEnd()) {
            int field = in.readTag();
            if (WireFormat.getTagFieldNumber(field) == 2) {
              readRow(in, now);
            } else {
              in.skipField(field);
            }
          }
          in.popLimit(update);
        }
        case 3 -> throw new IllegalStateException("a row left the live query, which this workload never causes");
        default -> in.skipField(tag);
      }
    }
    in.popLimit(changes);
  }

  /** A LiveRow: its content (7) holds the due time and the sequence of its version. */
  private void readRow(CodedInputStream in, long now) throws IOException {
    int row = in.pushLimit(in.readRawVarint32());
    read[0] = 0;
    read[1] = -1;
    while (!in.isAtEnd()) {
      int field = in.readTag();
      if (WireFormat.getTagFieldNumber(field) == 7) {
        QueryDocuments.readDueAndSequence(in, in.readRawVarint32(), read);
      } else {
        in.skipField(field);
      }
    }
    in.popLimit(row);
    long id = read[1] % documents.documents();
    if (read[1] < 0 || id % modulus != residue) {
      throw new IllegalStateException("a row of another query: version " + read[1]);
    }
    int slot = (int) (id / modulus);
    newest.accumulateAndGet(slot, (int) (read[1] + 1), Math::max);
    if (read[0] != 0) {
      StreamMeasure.delivered(recorder, read[0], now);
    }
  }
}
