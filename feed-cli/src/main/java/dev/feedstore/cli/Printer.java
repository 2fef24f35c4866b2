package dev.feedstore.cli;

import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.DurableSubscription;
import dev.feedstore.proto.v1.FeedInfo;
import java.util.Optional;

/**
 * Where commands put what they produce: for people ({@link HumanPrinter}) or as JSON lines ({@link
 * JsonPrinter}). Every call writes whole lines and flushes them, so a pipe sees each block as it
 * arrives. Not thread-safe: one command prints from one thread.
 */
interface Printer {
  /** A block of a space, with its feed's namespace when known. */
  void block(String spaceId, Block block, Optional<String> namespace);

  /** A feed of a space, from ListFeeds. */
  void feed(String spaceId, FeedInfo feed);

  /** A durable subscription of a space, from ListSubscriptions. */
  void subscription(String spaceId, DurableSubscription subscription);

  /** A block this run appended and the position the authority gave it. */
  void appended(String spaceId, Block block, long position);

  /** A feed this run created, by appending its first block. */
  void created(String spaceId, Block first, Optional<String> namespace, long position);

  /** A Watch stream has sent the history; live blocks follow. */
  void caughtUp(long maxPosition);

  /** A Watch stream is idle; the space's highest position is {@code maxPosition}. */
  void heartbeat(long maxPosition);

  /** A remark for a person (a summary, a retry, a reconnection), on standard error. */
  void remark(String text);
}
