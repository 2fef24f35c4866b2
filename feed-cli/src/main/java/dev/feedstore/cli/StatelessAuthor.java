package dev.feedstore.cli;

import com.google.protobuf.ByteString;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.AppendResponse;
import dev.feedstore.proto.v1.Block;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Appends to a feed on the authority as an author that keeps nothing locally: it reads the feed to
 * find the next sequence and the predecessor ({@link FeedTip}), appends, and when another writer
 * took the same sequence under the same actor first ({@code ALREADY_EXISTS}) reads the feed again
 * and retries with the next free one, up to {@code retries} times.
 *
 * <p>Data is sent in batches of at most {@code batch} blocks; each batch is one Append, so all of a
 * batch is stored or none of it, and a failure after the first batch leaves the earlier ones
 * stored (they were reported). Not thread-safe.
 */
final class StatelessAuthor {
  /** A block stored by this author and its position. */
  record Appended(Block block, long position) {}

  private final AuthorityConnection authority;
  private final String spaceId;
  private final String actorId;
  private final Optional<String> namespace;
  private final Clock clock;
  private final int batch;
  private final int retries;
  private final Printer printer;

  StatelessAuthor(AuthorityConnection authority, String spaceId, String actorId, Optional<String> namespace, Clock clock,
      int batch, int retries, Printer printer) {
    this.authority = authority;
    this.spaceId = spaceId;
    this.actorId = actorId;
    this.namespace = namespace;
    this.clock = clock;
    this.batch = batch;
    this.retries = retries;
    this.printer = printer;
  }

  /** Appends one block per element of {@code data}, in order, and returns them with their positions. */
  List<Appended> append(String feedId, List<ByteString> data) {
    FeedTip tip = FeedTip.read(authority, spaceId, feedId);
    warnIfNamespaceIgnored(feedId, tip);
    List<Appended> stored = new ArrayList<>(data.size());
    int conflicts = 0;
    while (stored.size() < data.size()) {
      List<ByteString> chunk = data.subList(stored.size(), Math.min(data.size(), stored.size() + batch));
      List<Block> blocks = chain(feedId, tip, chunk);
      AppendRequest.Builder request = AppendRequest.newBuilder().setSpaceId(spaceId).addAllBlocks(blocks);
      namespace.ifPresent(request::setNamespace);
      AppendResponse response;
      try {
        response = authority.append(request);
      } catch (StatusRuntimeException e) {
        if (e.getStatus().getCode() != Status.Code.ALREADY_EXISTS || conflicts++ >= retries) {
          throw e;
        }
        printer.remark("sequence " + blocks.get(0).getSequence() + " of feed " + feedId + " was taken by another"
            + " writer as " + actorId + "; reading the feed again (retry " + conflicts + " of " + retries + ")");
        tip = FeedTip.read(authority, spaceId, feedId);
        continue;
      }
      for (int i = 0; i < blocks.size(); i++) {
        stored.add(new Appended(blocks.get(i), response.getPositions(i)));
        tip = tip.after(blocks.get(i));
      }
    }
    return stored;
  }

  private List<Block> chain(String feedId, FeedTip tip, List<ByteString> chunk) {
    List<Block> blocks = new ArrayList<>(chunk.size());
    long now = clock.millis();
    Optional<Block> previous = tip.last();
    long sequence = tip.nextSequence();
    for (ByteString data : chunk) {
      Block.Builder block = Block.newBuilder()
          .setFeedId(feedId).setActorId(actorId).setSequence(sequence++).setTimestamp(now).setData(data);
      previous.ifPresent(p -> block.setPrevActorId(p.getActorId()).setPrevSequence(p.getSequence()));
      Block built = block.build();
      blocks.add(built);
      previous = Optional.of(built);
    }
    return blocks;
  }

  private void warnIfNamespaceIgnored(String feedId, FeedTip tip) {
    if (namespace.isPresent() && tip.last().isPresent() && !tip.namespace().equals(namespace)) {
      printer.remark("feed " + feedId + " exists with " + tip.namespace().map(ns -> "namespace " + ns)
          .orElse("no namespace") + "; --namespace " + namespace.get() + " only applies to a new feed and is ignored");
    }
  }
}
