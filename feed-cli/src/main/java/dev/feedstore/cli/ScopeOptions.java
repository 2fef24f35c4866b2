package dev.feedstore.cli;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.WatchRequest;
import java.util.List;
import picocli.CommandLine.Option;

/** Which feeds of a space a read or tail covers: some feeds, or one namespace; neither is the whole space. */
final class ScopeOptions {
  @Option(names = "--feed", paramLabel = "FEED_ID", required = true,
      description = "Only this feed (a ULID); repeat for several.")
  List<FeedId> feeds;

  @Option(names = "--namespace", paramLabel = "NAMESPACE", required = true,
      description = "Only the feeds of this namespace, including feeds created later.")
  Namespace namespace;

  static QueryRequest.Builder apply(ScopeOptions scope, QueryRequest.Builder request) {
    if (scope != null && scope.feeds != null) {
      scope.feeds.forEach(feed -> request.addFeedIds(feed.value()));
    } else if (scope != null && scope.namespace != null) {
      request.setNamespace(scope.namespace.value());
    }
    return request;
  }

  static WatchRequest.Builder apply(ScopeOptions scope, WatchRequest.Builder request) {
    if (scope != null && scope.feeds != null) {
      scope.feeds.forEach(feed -> request.addFeedIds(feed.value()));
    } else if (scope != null && scope.namespace != null) {
      request.setNamespace(scope.namespace.value());
    }
    return request;
  }
}
