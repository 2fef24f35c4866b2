package dev.feedstore.client;

import dev.feedstore.core.sync.AuthorityLimits;
import java.util.Objects;

/**
 * What an authority says about itself (its {@code GetServerInfo} answer): its version, the limits a
 * request must fit, and an upper bound of the messages it sends. Immutable.
 *
 * @param version the server's version, e.g. {@code 0.1.0}
 * @param limits what one request may carry
 * @param maxResponseBytes the largest message it sends; the session accepts messages this large
 */
public record ServerInfo(String version, AuthorityLimits limits, long maxResponseBytes) {
  public ServerInfo {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(limits, "limits");
  }
}
