package dev.feedstore.server;

import static io.grpc.Status.Code.INVALID_ARGUMENT;

import dev.feedstore.server.testing.HostileCase;
import java.util.ArrayList;
import java.util.List;

/**
 * The numbers of Compact and SetRetention: positions and bounds below their range, and bounds with
 * {@code server_default}. None may remove history or store a retention.
 */
final class HostileRetentionCases {
  private HostileRetentionCases() {}

  static List<HostileCase> all(HostileRequests requests) {
    List<HostileCase> cases = new ArrayList<>();
    for (long upTo : new long[] {0, -1, Long.MIN_VALUE}) {
      cases.add(HostileCase.of("Compact: up_to " + upTo,
          HostileRequests.compact(requests.compact().toBuilder().setUpTo(upTo).build()),
          INVALID_ARGUMENT, "up_to must be >= 1", String.valueOf(upTo)));
    }
    for (long bad : new long[] {-1, Long.MIN_VALUE}) {
      cases.add(HostileCase.of("SetRetention: blocks " + bad,
          HostileRequests.setRetention(requests.setRetention().toBuilder().setBlocks(bad).build()),
          INVALID_ARGUMENT, "blocks must be >= 0"));
      cases.add(HostileCase.of("SetRetention: age_ms " + bad,
          HostileRequests.setRetention(requests.setRetention().toBuilder().setAgeMs(bad).build()),
          INVALID_ARGUMENT, "age_ms must be >= 0"));
      cases.add(HostileCase.of("SetRetention: bytes " + bad,
          HostileRequests.setRetention(requests.setRetention().toBuilder().setBytes(bad).build()),
          INVALID_ARGUMENT, "bytes must be >= 0"));
    }
    cases.add(HostileCase.of("SetRetention: server_default with bounds",
        HostileRequests.setRetention(requests.setRetention().toBuilder().setServerDefault(true).build()),
        INVALID_ARGUMENT, "server_default must not be given with bounds"));
    return cases;
  }
}
