package dev.feedstore.server.internal.live;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.feedstore.server.internal.access.PrincipalLimits;
import dev.feedstore.server.internal.authority.PositionAuthority;
import dev.feedstore.server.internal.authority.ReadRequest;
import dev.feedstore.server.internal.authority.ResolvedRead;

/**
 * Checks that no live stream holds anything any more: none open in the watches, no count of the
 * connection or the principal, no scope bytes, no watcher on the space's tail and no hold on the
 * space (besides the check's own read).
 */
public final class NothingHeld {
  private NothingHeld() {}

  public static void assertNothingHeld(Watches watches, PrincipalLimits principals, PositionAuthority authority,
      ReadRequest ofTheSpace, String connection, String principal) {
    assertEquals(0, watches.openCount(), "open streams");
    assertEquals(0, watches.openOn(connection), "streams of the connection");
    assertEquals(0, watches.scopeBytes(), "scope bytes of open streams");
    assertEquals(0, principals.openStreams(principal), "streams of the principal");
    ResolvedRead read = authority.resolve(ofTheSpace);
    try {
      assertEquals(0, read.space().tail().watcherCount(), "watchers of the space's tail");
      assertEquals(1, read.space().holders(), "holders of the space: this check's own read");
    } finally {
      authority.release(read);
    }
  }
}
