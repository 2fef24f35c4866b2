package dev.feedstore.cli;

import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.DurableSubscription;
import dev.feedstore.proto.v1.FeedInfo;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.Optional;

/**
 * Output for people. Blocks and feeds go to standard output, one line each:
 *
 * <pre>
 *     17  01HQ3Z5V7W8X9Y0Z1A2B3C4D5E  notes  alice/3  2026-01-01T00:00:00Z  hello
 * </pre>
 *
 * (position, feed, namespace or {@code -}, actor/sequence, timestamp, data as text or {@code
 * base64:...}, cut after 200 characters). Remarks, summaries and the caught-up marker go to standard
 * error, so that standard output holds only data. {@code create} prints the new feed's id alone.
 */
final class HumanPrinter implements Printer {
  private static final int MAX_DATA_CHARS = 200;

  private final PrintWriter out;
  private final PrintWriter err;
  private boolean feedHeaderPrinted;
  private boolean subscriptionHeaderPrinted;

  HumanPrinter(PrintWriter out, PrintWriter err) {
    this.out = out;
    this.err = err;
  }

  @Override
  public void block(String spaceId, Block block, Optional<String> namespace) {
    out.printf("%6d  %s  %s  %s/%d  %s  %s%n", block.getPosition(), block.getFeedId(), namespace.orElse("-"),
        block.getActorId(), block.getSequence(), Instant.ofEpochMilli(block.getTimestamp()),
        DataText.forPerson(block.getData(), MAX_DATA_CHARS));
    out.flush();
  }

  @Override
  public void feed(String spaceId, FeedInfo feed) {
    if (!feedHeaderPrinted) {
      out.printf("%-26s  %-16s  %8s  %13s%n", "FEED", "NAMESPACE", "BLOCKS", "LAST_POSITION");
      feedHeaderPrinted = true;
    }
    out.printf("%-26s  %-16s  %8d  %13d%n", feed.getFeedId(), feed.hasNamespace() ? feed.getNamespace() : "-",
        feed.getBlockCount(), feed.getLastPosition());
    out.flush();
  }

  @Override
  public void subscription(String spaceId, DurableSubscription subscription) {
    if (!subscriptionHeaderPrinted) {
      out.printf("%-22s  %-24s  %12s  %10s  %-24s  %s%n", "SUBSCRIPTION", "NAME", "ACKED", "LAG", "EXPIRES_AT", "STATE");
      subscriptionHeaderPrinted = true;
    }
    out.printf("%-22s  %-24s  %12d  %10d  %-24s  %s%n", subscription.getSubscriptionId(),
        subscription.hasName() ? subscription.getName() : "-", subscription.getAcked(), subscription.getLag(),
        Instant.ofEpochMilli(subscription.getExpiresAt()), subscription.getExpired() ? "expired" : "live");
    out.flush();
  }

  @Override
  public void appended(String spaceId, Block block, long position) {
    out.printf("appended %s/%s/%d at position %d%n", block.getFeedId(), block.getActorId(), block.getSequence(),
        position);
    out.flush();
  }

  @Override
  public void created(String spaceId, Block first, Optional<String> namespace, long position) {
    out.println(first.getFeedId());
    out.flush();
    remark("created feed " + first.getFeedId() + " in space " + spaceId
        + namespace.map(ns -> " (namespace " + ns + ")").orElse(" (no namespace)")
        + ": first block " + first.getActorId() + "/" + first.getSequence() + " at position " + position);
  }

  @Override
  public void caughtUp(long maxPosition) {
    remark("-- caught up (the space's highest position is " + maxPosition + "); new blocks follow as they"
        + " commit. Ctrl-C stops.");
  }

  @Override
  public void heartbeat(long maxPosition) {
    // Only JSON output shows heartbeats; a person sees that nothing happened.
  }

  @Override
  public void remark(String text) {
    err.println(text);
    err.flush();
  }
}
