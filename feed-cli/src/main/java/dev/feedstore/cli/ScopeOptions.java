package dev.feedstore.cli;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Scope;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.Option;

/** Which feeds of a space a read or tail covers: some feeds, or one namespace; neither is the whole space. */
final class ScopeOptions {
  @Option(names = "--feed", paramLabel = "FEED_ID", required = true,
      description = "Only this feed (a ULID); repeat for several.")
  List<FeedId> feeds;

  @Option(names = "--namespace", paramLabel = "NAMESPACE", required = true,
      description = "Only the feeds of this namespace, including feeds created later.")
  Namespace namespace;

  /** The feed ids of {@code scope} (null: no scope option was given), for a request's {@code feed_ids}. */
  static List<String> feedIds(ScopeOptions scope) {
    return scope == null || scope.feeds == null ? List.of() : scope.feeds.stream().map(FeedId::value).toList();
  }

  /** {@code scope} as the domain's (null: no scope option was given, the whole space). */
  static Scope of(ScopeOptions scope) {
    if (scope == null) {
      return Scope.WHOLE_SPACE;
    }
    return Scope.of(scope.feeds == null ? Set.of() : Set.copyOf(scope.feeds),
        scope.namespace == null ? Set.of() : Set.of(scope.namespace));
  }

  /** The namespace of {@code scope}, if it names one. */
  static Optional<String> namespace(ScopeOptions scope) {
    return scope == null || scope.namespace == null ? Optional.empty() : Optional.of(scope.namespace.value());
  }
}
