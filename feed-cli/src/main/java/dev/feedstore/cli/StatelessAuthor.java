package dev.feedstore.cli;

import com.google.protobuf.ByteString;
import dev.feedstore.client.AppendFailedException;
import dev.feedstore.client.AppendReceipt;
import dev.feedstore.client.Appender;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import dev.feedstore.proto.WireMapping;
import dev.feedstore.proto.v1.Block;
import io.grpc.StatusRuntimeException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Appends to a feed on the authority as an author that keeps nothing locally: it reads the feed to
 * find the next sequence and the predecessor ({@link FeedTip}), appends, and when another writer
 * took the same sequence under the same actor first ({@code ALREADY_EXISTS}) reads the feed again
 * and retries with the next free one, up to {@code retries} times.
 *
 * <p>Data is sent in batches of at most {@code batch} blocks; each batch is one Append, so all of a
 * batch is stored or none of it, and a failure after the first batch leaves the earlier ones
 * stored. Up to {@code inFlight} batches are in flight at once on one connection ({@link Appender}),
 * answered in order. Not thread-safe.
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
  private final int inFlight;
  private final Printer printer;

  StatelessAuthor(AuthorityConnection authority, String spaceId, String actorId, Optional<String> namespace, Clock clock,
      int batch, int retries, int inFlight, Printer printer) {
    this.authority = authority;
    this.spaceId = spaceId;
    this.actorId = actorId;
    this.namespace = namespace;
    this.clock = clock;
    this.batch = batch;
    this.retries = retries;
    this.inFlight = inFlight;
    this.printer = printer;
  }

  /**
   * Appends one block per element of {@code data}, in order, and returns them with their positions.
   * Every batch is sent at once (up to the appender's calls in flight), each chained to the batch
   * before it; when another writer took a sequence first, the batches from the refused one on (the
   * authority aborts those after it) are chained again from the feed as it now is and sent again.
   *
   * @throws StatusRuntimeException the authority's refusal or a transport failure
   */
  List<Appended> append(String feedId, List<ByteString> data) {
    FeedTip tip = FeedTip.read(authority, spaceId, feedId);
    warnIfNamespaceIgnored(feedId, tip);
    List<Appended> stored = new ArrayList<>(data.size());
    int conflicts = 0;
    SpaceId space = SpaceId.of(spaceId);
    Optional<Namespace> ns = namespace.map(Namespace::of);
    try (Appender appender = authority.appender(inFlight)) {
      while (stored.size() < data.size()) {
        List<List<Block>> batches = new ArrayList<>();
        List<CompletableFuture<AppendReceipt>> replies = new ArrayList<>();
        FeedTip next = tip;
        for (int from = stored.size(); from < data.size(); from += batch) {
          List<Block> blocks = chain(feedId, next, data.subList(from, Math.min(data.size(), from + batch)));
          batches.add(blocks);
          replies.add(appender.append(space, ns, WireMapping.toDomain(blocks)));
          next = next.after(blocks.get(blocks.size() - 1));
        }
        for (int i = 0; i < batches.size(); i++) {
          List<Block> blocks = batches.get(i);
          AppendReceipt reply;
          try {
            reply = appender.await(replies.get(i));
          } catch (AppendFailedException e) {
            if (e.reason() != AppendFailedException.Reason.SEQUENCE_CONFLICT || conflicts++ >= retries) {
              throw asStatus(e);
            }
            printer.remark("sequence " + blocks.get(0).getSequence() + " of feed " + feedId + " was taken by another"
                + " writer as " + actorId + "; reading the feed again (retry " + conflicts + " of " + retries + ")");
            replies.forEach(later -> later.exceptionally(aborted -> null).join());
            tip = FeedTip.read(authority, spaceId, feedId);
            appender.restart();
            break;
          }
          for (int b = 0; b < blocks.size(); b++) {
            stored.add(new Appended(blocks.get(b), reply.positions().get(b).value()));
            tip = tip.after(blocks.get(b));
          }
        }
      }
    }
    return stored;
  }

  /** The authority's answer as gRPC reported it, as feedctl reports statuses. */
  private static RuntimeException asStatus(AppendFailedException e) {
    return e.getCause() instanceof StatusRuntimeException status ? status : e;
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
