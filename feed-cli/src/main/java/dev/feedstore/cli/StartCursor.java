package dev.feedstore.cli;

import dev.feedstore.core.SpaceId;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import java.time.Instant;

/**
 * Where a read from a time ({@code --since}) starts: the cursor the server resolves the time to,
 * the highest position it received before it (a one-block Query with {@code start_time}; the floor
 * when the history before the time was compacted).
 */
final class StartCursor {
  private StartCursor() {}

  static long of(AuthorityConnection authority, SpaceId space, Instant time, ServerAddress server) {
    QueryResponse answer = authority.query(QueryRequest.newBuilder().setSpaceId(space.value())
        .setStartTime(time.toEpochMilli()).setLimit(1));
    if (!answer.hasStartCursor()) {
      throw new CliException("the server at " + server + " does not resolve start times (it keeps no receive"
          + " times): use --from POSITION", FeedCtl.Exit.REFUSED);
    }
    return answer.getStartCursor();
  }

  /** Refuses {@code --since} beside {@code --from}: both say where to start. */
  static void checkOne(Instant since, Long from) {
    if (since != null && from != null) {
      throw new CliException("--since and --from both say where to start: give one", FeedCtl.Exit.USAGE);
    }
  }
}
