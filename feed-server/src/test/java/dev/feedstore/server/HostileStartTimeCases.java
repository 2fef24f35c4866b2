package dev.feedstore.server;

import static io.grpc.Status.Code.INVALID_ARGUMENT;

import dev.feedstore.server.testing.HostileCase;
import java.util.ArrayList;
import java.util.List;

/**
 * The start time of Query and Watch: before 1970, and together with what it replaces (a cursor,
 * from_ack). Each is refused naming start_time and reads nothing.
 */
final class HostileStartTimeCases {
  private HostileStartTimeCases() {}

  static List<HostileCase> all(HostileRequests requests) {
    List<HostileCase> cases = new ArrayList<>();
    for (long bad : new long[] {-1, Long.MIN_VALUE}) {
      requests.addReads(cases, "start_time " + bad, query -> query.setCursor(0).setStartTime(bad),
          INVALID_ARGUMENT, "start_time must be >= 0", String.valueOf(bad));
    }
    requests.addReads(cases, "start_time with a cursor", query -> query.setCursor(3).setStartTime(1_000),
        INVALID_ARGUMENT, "start_time must not be given with a cursor", "cursor was 3");
    requests.addReads(cases, "start_time with from_ack", query -> query.clearFeedIds().clearNamespace().setCursor(0)
            .setSubscriptionId("AAAAAAAAAAAAAAAAAAAAAA").setFromAck(true).setStartTime(1_000),
        INVALID_ARGUMENT, "start_time must not be given with from_ack");
    return cases;
  }
}
