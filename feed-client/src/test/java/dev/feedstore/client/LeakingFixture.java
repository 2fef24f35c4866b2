package dev.feedstore.client;

import dev.feedstore.core.SpaceId;
import dev.feedstore.core.sync.SpaceSync;
import io.grpc.Channel;
import io.grpc.Status;
import java.util.List;
import java.util.Optional;

/**
 * A class that breaks {@link ClientApiTest}'s rules on purpose, to show that each one fails: it sits
 * in the API package but is compiled with the tests, so the rules on the library's classes never
 * read it.
 */
public final class LeakingFixture {
  /** A field that shows the sync engine. */
  public static final List<SpaceSync> SPACES = List.of();

  /** A result that shows a gRPC type. */
  public Optional<Status> status() {
    return Optional.empty();
  }

  /** A parameter that shows a gRPC type. */
  public void calls(Channel channel) {
  }

  /** Hidden from users, so free to use any type. */
  Status hidden(SpaceId space) {
    return Status.OK;
  }

  /** A supertype from gRPC. */
  public abstract static class Leaks extends io.grpc.CallCredentials {
  }
}
