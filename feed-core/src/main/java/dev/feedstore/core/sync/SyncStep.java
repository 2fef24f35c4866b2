package dev.feedstore.core.sync;

/**
 * What one step of sync did.
 *
 * @param kind the kind of outcome
 * @param blocks how many blocks it changed: stored, positioned or re-keyed
 * @param detail a sentence for logs, e.g. which rollback signal fired
 */
public record SyncStep(Kind kind, int blocks, String detail) {

  /** The kinds of outcome. */
  public enum Kind {
    /** Nothing to push, or nothing is replicated. */
    IDLE,
    /** Blocks were pulled and stored (possibly none: the space is up to date). */
    PULLED,
    /** Pushed blocks received their positions. */
    PUSHED,
    /** The authority's highest position was learned and live-tail policies resolved. */
    PROBED,
    /** The answer belonged to state that changed while the call ran; it was dropped. */
    STALE,
    /** The first token over existing progress was recorded; the cursor stepped back to verify. */
    VERIFYING,
    /** The authority's token changed: positions cleared, replaying from the start. */
    SWAPPED,
    /** The authority lost acknowledged blocks: displaced blocks unpositioned, replaying. */
    ROLLED_BACK,
    /** The authority held some pushed keys with other content; those blocks got new sequences. */
    REKEYED,
    /**
     * A block stored corrupt was set aside: fetched again from the authority when it holds it (the
     * cursor went back to just before it), otherwise lost to this replica and never pushed.
     */
    SET_ASIDE,
    /**
     * The authority refused a request as over one of its limits; the limits are narrowed and the
     * next request, smaller, may be made at once.
     */
    OVER_LIMIT,
    /**
     * The history after the cursor was compacted on the authority: the cursor moved up to the
     * authority's floor, every block held was kept, and what the replica's policies needed below the
     * floor is reported as unavailable ({@link SpaceSync#historyUnavailable()}).
     */
    RESUMED_AT_FLOOR,
    /**
     * The authority refused a push because some of its blocks are in feeds it takes no new blocks
     * in (the feeds of Durable Streams that are over): those feeds' blocks are kept, left out of
     * pushes and listed as refused ({@link SpaceSync#closedFeeds()}); every other block is pushed.
     */
    FEEDS_CLOSED
  }

  static SyncStep of(Kind kind, int blocks, String detail) {
    return new SyncStep(kind, blocks, detail);
  }

  static SyncStep of(Kind kind, String detail) {
    return new SyncStep(kind, 0, detail);
  }

  /**
   * True when the step changed the replica's positions or cursor wholesale (swap, rollback, verify)
   * or moved the cursor back (a block set aside) or up to the authority's floor: streams must start
   * again from the stored state.
   */
  public boolean restarted() {
    return kind == Kind.SWAPPED || kind == Kind.ROLLED_BACK || kind == Kind.VERIFYING || kind == Kind.SET_ASIDE
        || kind == Kind.RESUMED_AT_FLOOR;
  }
}
