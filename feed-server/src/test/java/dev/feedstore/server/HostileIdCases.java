package dev.feedstore.server;

import static io.grpc.Status.Code.INVALID_ARGUMENT;

import dev.feedstore.server.testing.BadText;
import dev.feedstore.server.testing.HostileCase;
import java.util.ArrayList;
import java.util.List;

/**
 * The string fields every RPC shares: {@code space_id}, {@code request_id} and {@code namespace},
 * empty, huge, and of the wrong characters.
 */
final class HostileIdCases {
  private static final String ID_LENGTH = " must be 1-128 characters long";
  private static final String ID_CHARS = " must be 1-128 characters of [A-Za-z0-9._:-]";

  private HostileIdCases() {}

  static List<HostileCase> all(HostileRequests requests) {
    List<HostileCase> cases = new ArrayList<>();
    for (HostileRequests.Rpc rpc : requests.withSpaceId()) {
      identifier(cases, rpc, "space_id");
      cases.add(HostileCase.of(rpc.name() + ": space_id " + BadText.HUGE.label(), rpc.set().apply(BadText.HUGE.value()),
          INVALID_ARGUMENT, "space_id" + ID_LENGTH, "(10000000 chars)"));
    }
    for (HostileRequests.Rpc rpc : requests.withNamespace()) {
      identifier(cases, rpc, "namespace");
    }
    for (HostileRequests.Rpc rpc : requests.withRequestId()) {
      for (BadText bad : List.of(new BadText("129 chars", "r".repeat(129)), BadText.LONG, BadText.HUGE)) {
        cases.add(HostileCase.of(rpc.name() + ": request_id " + bad.label(), rpc.set().apply(bad.value()),
            INVALID_ARGUMENT, "request_id must be at most 128 characters", "(" + bad.value().length() + " chars)"));
      }
    }
    return cases;
  }

  private static void identifier(List<HostileCase> cases, HostileRequests.Rpc rpc, String field) {
    for (BadText bad : BadText.lengths()) {
      cases.add(HostileCase.of(rpc.name() + ": " + field + " " + bad.label(), rpc.set().apply(bad.value()),
          INVALID_ARGUMENT, field + ID_LENGTH));
    }
    for (BadText bad : BadText.notIdentifiers()) {
      cases.add(HostileCase.of(rpc.name() + ": " + field + " " + bad.label(), rpc.set().apply(bad.value()),
          INVALID_ARGUMENT, field + ID_CHARS));
    }
  }
}
