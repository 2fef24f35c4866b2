package dev.feedstore.cli;

import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import java.util.Optional;

/**
 * What the authority holds of a feed that a new block must follow: the next sequence (one more than
 * the highest of any author, 0 for a feed it does not hold; DESIGN 2) and the predecessor (the
 * block last in feed order, which on the authority is the one with the highest position).
 *
 * @param nextSequence the sequence of the next block
 * @param last the block a new block names as its predecessor; empty for a new feed
 * @param namespace the feed's namespace on the authority, if it has one
 */
record FeedTip(long nextSequence, Optional<Block> last, Optional<String> namespace) {
  static final FeedTip NEW_FEED = new FeedTip(0, Optional.empty(), Optional.empty());

  /**
   * Reads the whole feed from the authority, a page at a time: the highest sequence can sit
   * anywhere in a feed that several authors wrote offline, so no shortcut finds it.
   */
  static FeedTip read(AuthorityConnection authority, String spaceId, String feedId) {
    FeedTip tip = NEW_FEED;
    long cursor = 0;
    while (true) {
      QueryResponse page = authority.query(QueryRequest.newBuilder()
          .setSpaceId(spaceId).addFeedIds(feedId).setCursor(cursor));
      for (Block block : page.getBlocksList()) {
        tip = new FeedTip(Math.max(tip.nextSequence, block.getSequence() + 1), Optional.of(block),
            Optional.ofNullable(page.getFeedNamespacesMap().get(feedId)).or(tip::namespace));
        cursor = block.getPosition();
      }
      if (!page.getHasMore() || page.getBlocksCount() == 0) {
        return tip;
      }
    }
  }

  /** The tip after {@code block} was appended: it is the predecessor and its sequence is taken. */
  FeedTip after(Block block) {
    return new FeedTip(Math.max(nextSequence, block.getSequence() + 1), Optional.of(block), namespace);
  }
}
