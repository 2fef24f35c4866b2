package dev.feedstore.server.internal.spaces;

import dev.feedstore.server.internal.live.LiveFollower;
import io.grpc.Status;

/**
 * Not a test: a class that breaks every package rule of the server on purpose, so that {@code
 * ServerPackagesTest} shows each rule failing on it. It lives among the spaces and imports upwards
 * (the live follower, which imports the spaces: a cycle), gRPC and the generated protobuf types.
 */
final class RuleBreakingFixture {
  private RuleBreakingFixture() {}

  static String breaks(LiveFollower follower, dev.feedstore.proto.v1.Block block) {
    return follower + " " + block.getFeedId() + " " + Status.Code.UNAVAILABLE;
  }
}
