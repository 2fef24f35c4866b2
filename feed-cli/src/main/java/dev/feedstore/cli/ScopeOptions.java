package dev.feedstore.cli;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import java.util.List;
import java.util.Optional;
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

  /** The namespace of {@code scope}, if it names one. */
  static Optional<String> namespace(ScopeOptions scope) {
    return scope == null || scope.namespace == null ? Optional.empty() : Optional.of(scope.namespace.value());
  }
}
