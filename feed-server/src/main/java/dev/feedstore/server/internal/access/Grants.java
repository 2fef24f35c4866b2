package dev.feedstore.server.internal.access;

import dev.feedstore.core.Namespace;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import dev.feedstore.server.settings.AccessTokens;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The grants of one token, as the questions the access rules ask of them: may it read or write a
 * space whole, or the feeds of a namespace there, or change the space's history. A feed without a
 * namespace is covered by space-wide grants only. Immutable and thread-safe.
 */
final class Grants {
  private final List<AccessTokens.Grant> held;

  Grants(List<AccessTokens.Grant> held) {
    this.held = List.copyOf(held);
  }

  /** Whether some grant covers some or all of {@code space}. */
  boolean names(String space) {
    return held.stream().anyMatch(grant -> grant.names(space));
  }

  /** Whether some write grant covers some or all of {@code space}. */
  boolean writesIn(String space) {
    return held.stream().anyMatch(grant -> grant.write() && grant.names(space));
  }

  /** Whether the token may read every feed of {@code space} (with {@code write}: and append to it). */
  boolean wholeSpace(String space, boolean write) {
    return held.stream().anyMatch(grant -> (grant.write() || !write) && grant.spaceWide(space));
  }

  /** Whether the token may read (with {@code write}: and append to) the feeds of {@code namespace} in {@code space}. */
  boolean covers(String space, Optional<Namespace> namespace, boolean write) {
    return held.stream().anyMatch(grant -> write ? grant.mayWrite(space, namespace) : grant.mayRead(space, namespace));
  }

  /** Whether the token may remove history of {@code space}. */
  boolean administers(String space) {
    return held.stream().anyMatch(grant -> grant.mayAdminister(space));
  }

  /** What the token may do in {@code space}, for a refusal that names the space: "the token may read ... there". */
  String describe(String space) {
    String write = reach(space, true);
    return "the token may read " + reach(space, false) + (write.isEmpty() ? "" : " and write " + write) + " there";
  }

  /** What the token may read or write in {@code space}: "all", "only namespaces 'a', 'b'", "nothing" ("" for writes). */
  private String reach(String space, boolean write) {
    if (wholeSpace(space, write)) {
      return "all";
    }
    TreeSet<String> namespaces = held.stream().filter(grant -> grant.names(space) && (grant.write() || !write))
        .flatMap(grant -> grant.namespaces().stream()).map(Namespace::value)
        .collect(Collectors.toCollection(TreeSet::new));
    if (namespaces.isEmpty()) {
      return write ? "" : "nothing";
    }
    return "only namespace" + (namespaces.size() == 1 ? " " : "s ")
        + RateLimitedLog.clip(namespaces.stream().map(name -> "'" + name + "'").collect(Collectors.joining(", ")));
  }
}
