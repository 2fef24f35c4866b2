package dev.feedstore.client.simulation;

/** What the network does to one call. */
enum Fault {
  /** The call goes through. */
  NONE,
  /** The call fails before the authority sees it. */
  FAIL_BEFORE_COMMIT,
  /** The authority commits, but the reply is lost. */
  FAIL_AFTER_COMMIT,
  /** The reply arrives twice. */
  DUPLICATE_REPLY
}
