package dev.feedstore.client;

import java.util.Objects;

/**
 * What an authority says about itself (its {@code GetServerInfo} answer): its version, the limits a
 * request must fit, and an upper bound of the messages it sends. Immutable.
 *
 * @param version the server's version, e.g. {@code 0.1.0}
 * @param maxMessageBytes the largest request message it takes ({@code max-message-bytes})
 * @param blocksPerAppend the most blocks in one append ({@code blocks-per-append})
 * @param blockBytes the largest data of one block ({@code block-bytes})
 * @param queryLimit the most blocks one query may ask for ({@code query-limit})
 * @param maxResponseBytes the largest message it sends; the session accepts messages this large
 */
public record ServerInfo(String version, long maxMessageBytes, int blocksPerAppend, int blockBytes, int queryLimit,
    long maxResponseBytes) {
  /** Checks that the version is given. */
  public ServerInfo {
    Objects.requireNonNull(version, "version");
  }
}
