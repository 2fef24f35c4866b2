package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.SUBSCRIPTION_MAX_TTL_MS;
import static io.grpc.Status.Code.INVALID_ARGUMENT;
import static io.grpc.Status.Code.NOT_FOUND;
import static io.grpc.Status.Code.RESOURCE_EXHAUSTED;

import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.BadText;
import dev.feedstore.server.testing.HostileCase;
import java.util.ArrayList;
import java.util.List;

/**
 * Durable subscriptions: Ack with bad, unknown, expired, foreign and non-durable subscription ids
 * and positions out of range; Subscribe with bad durable fields; Query and Watch {@code from_ack}
 * without a durable subscription or with a cursor.
 *
 * @param durable a live durable subscription named "worker" of namespace "n" in space {@code s}
 * @param expiredDurable a durable subscription of space {@code s} that has expired
 * @param plain a live subscription of space {@code s} that is not durable
 * @param foreign a live subscription of another space
 */
record HostileDurableCases(HostileRequests requests, String durable, String expiredDurable, String plain,
    String foreign) {

  List<HostileCase> all() {
    List<HostileCase> cases = new ArrayList<>();
    for (BadText bad : List.of(BadText.EMPTY, new BadText("129 chars", "s".repeat(129)), BadText.LONG)) {
      ack(cases, "subscription_id " + bad.label(), bad.value(), 0, INVALID_ARGUMENT,
          "subscription_id must be 1-128 characters (an id returned by Subscribe)");
    }
    for (BadText bad : BadText.concat(List.of(new BadText("unknown", "AAAAAAAAAAAAAAAAAAAAAA")), BadText.notIdentifiers())) {
      ack(cases, "subscription_id " + bad.label(), bad.value(), 0, NOT_FOUND, "is not known in space s; subscribe again");
    }
    ack(cases, "an expired durable subscription", expiredDurable, 0, NOT_FOUND,
        "subscription '" + expiredDurable + "' expired at", "not acknowledged within its ack_within_ms");
    ack(cases, "another space's subscription", foreign, 0, NOT_FOUND, "is not known in space s");
    ack(cases, "a subscription that is not durable", plain, 0, INVALID_ARGUMENT,
        "subscription_id names a subscription that is not durable");
    for (long upTo : new long[] {-1, Long.MIN_VALUE}) {
      ack(cases, "up_to " + upTo, durable, upTo, INVALID_ARGUMENT, "up_to must be >= 0", "was " + upTo);
    }
    for (long upTo : new long[] {1_000_000_000, Long.MAX_VALUE}) {
      ack(cases, "up_to " + upTo, durable, upTo, INVALID_ARGUMENT, "up_to must be at most the space's highest position",
          "was " + upTo);
    }

    List<BadText> badNames = new ArrayList<>(BadText.concat(BadText.lengths(),
        List.of(new BadText("129 chars", "n".repeat(129)))));
    BadText.unprintable().stream().filter(bad -> !bad.label().equals("space")).forEach(badNames::add);
    for (BadText bad : badNames) {
      requests.addSubscribe(cases, "name " + bad.label(), s -> s.setDurable(true).setName(bad.value()), INVALID_ARGUMENT,
          "name must be 1-128 printable ASCII characters");
    }
    requests.addSubscribe(cases, "name without durable", s -> s.setName("w"), INVALID_ARGUMENT,
        "name is for a durable subscription only");
    requests.addSubscribe(cases, "ack_within_ms without durable", s -> s.setAckWithinMs(1_000), INVALID_ARGUMENT,
        "ack_within_ms is for a durable subscription only");
    requests.addSubscribe(cases, "durable with ttl_ms", s -> s.setDurable(true).setTtlMs(1_000), INVALID_ARGUMENT,
        "ttl_ms is not for a durable subscription");
    for (long within : new long[] {0, -1, Long.MIN_VALUE}) {
      requests.addSubscribe(cases, "ack_within_ms " + within, s -> s.setDurable(true).setAckWithinMs(within), INVALID_ARGUMENT,
          "ack_within_ms must be > 0", "was " + within);
    }
    for (long within : new long[] {SUBSCRIPTION_MAX_TTL_MS.defaultValue() + 1, Long.MAX_VALUE}) {
      requests.addSubscribe(cases, "ack_within_ms " + within, s -> s.setDurable(true).setAckWithinMs(within), RESOURCE_EXHAUSTED,
          "subscription-max-ttl-ms limit is 86400000, ack_within_ms has " + within);
    }
    requests.addSubscribe(cases, "the name of a live one of another scope",
        s -> s.clearNamespaces().addNamespaces("other").setDurable(true).setName("worker"), INVALID_ARGUMENT,
        "name is the name of a live durable subscription of another scope");

    requests.addReads(cases, "from_ack without a subscription", q -> q.setFromAck(true), INVALID_ARGUMENT,
        "from_ack needs a durable subscription in subscription_id");
    requests.addReads(cases, "from_ack of a subscription that is not durable", q -> q.setSubscriptionId(plain).setFromAck(true),
        INVALID_ARGUMENT, "from_ack needs a durable subscription in subscription_id");
    requests.addReads(cases, "from_ack with a cursor", q -> q.setSubscriptionId(durable).setFromAck(true).setCursor(5),
        INVALID_ARGUMENT, "cursor must be 0 with from_ack");
    requests.addReads(cases, "from_ack of an expired durable subscription", q -> q.setSubscriptionId(expiredDurable).setFromAck(true),
        NOT_FOUND, "subscription '" + expiredDurable + "' expired at");
    return cases;
  }

  private void ack(List<HostileCase> cases, String what, String id, long upTo, io.grpc.Status.Code code,
      String... fragments) {
    cases.add(HostileCase.of("Ack: " + what, HostileRequests.ack(requests.ack(id).toBuilder().setUpTo(upTo).build()),
        code, fragments));
  }
}
